"""The jobs the broker could not take, kept in the database until it is back; the workers' heartbeats."""
