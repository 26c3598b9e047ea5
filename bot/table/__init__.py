"""The table service: games loaded, changed through one commit path, announced."""
