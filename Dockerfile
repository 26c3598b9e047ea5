# The Tempus Discord bot. Build: docker build -t tempus-bot .
# Run:   docker run -e DISCORD_TOKEN=... -v tempus-data:/data tempus-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TEMPUS_DB=/data/tempus.db

WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

COPY data ./data
COPY engine ./engine
COPY lang ./lang
COPY render ./render
COPY bot ./bot

RUN useradd --create-home --uid 10001 tempus && mkdir -p /data && chown tempus /data
USER tempus
VOLUME ["/data"]

CMD ["python", "-m", "bot"]
