"""The sandbox: the real bot against a loopback Discord, seen in a browser (docs/SANDBOX.md)."""
