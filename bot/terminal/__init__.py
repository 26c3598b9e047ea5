"""Playing offline in a terminal through the same table service."""
