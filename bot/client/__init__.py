"""The Discord layer: the discord.py client, slash commands, components, localisations."""
