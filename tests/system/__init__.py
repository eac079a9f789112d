"""Tests across the layers: architecture, README commands, published figures, fuzzing, hostile
inputs, cold start."""
