"""Evaluation harness: memory recall, and (with the eval issue) KG retrieval and scale."""
