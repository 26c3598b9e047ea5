"""What the operator sets and runs: the settings from the environment, and the commands
beside the bot (``check-db``, ``restore``, ``migrate-db``, ``rebuild-history``). The top
of the host, with the front ends: it puts storage, history and the cluster together."""
