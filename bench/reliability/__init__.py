"""The reliability suite (issue 14's probe, runnable by hand): see docs/reliability.md."""
