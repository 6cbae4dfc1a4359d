"""Core layer: the error tree, settings, typed records and tracing helpers. Imports nothing from medpath's other layers."""
