"""learn (seed 003): lessons and managed skills."""
