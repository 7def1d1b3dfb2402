"""The HTML importer: ``reader.read`` decodes a saved page or HTML book and ``parser`` turns it into heading and
block events; ``math`` keeps equations.  Part of ``core.ingest``; same imports allowed.
"""
