# The Tempus Discord bot. Build: docker build -t tempus-bot .
# Run:   docker run -e DISCORD_TOKEN=... -v tempus-data:/data tempus-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    TEMPUS_DB=/data/tempus.db \
    TEMPUS_HEALTH_FILE=/tmp/tempus-health.json

WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

COPY data ./data
COPY engine ./engine
COPY lang ./lang
COPY render ./render
COPY games ./games
COPY bot ./bot

RUN useradd --create-home --uid 10001 tempus && mkdir -p /data && chown tempus /data
USER tempus
VOLUME ["/data"]

# `docker stop` sends SIGTERM to the bot itself (exec form: python is PID 1, no shell in
# between); it stops cleanly within 9 s (bot/runtime/shutdown.py), before Docker's 10 s
STOPSIGNAL SIGTERM
# the bot rewrites its health file every 15 s: connected, event loop answering, database
# taking writes (bot/runtime/health.py)
HEALTHCHECK --interval=30s --timeout=10s --start-period=90s --retries=3 \
    CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot"]
