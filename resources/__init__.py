"""FieldOps's files that are not code, installed as the package ``fieldops_resources``.

Read them through ``fieldops.resources``, never by path.
"""
