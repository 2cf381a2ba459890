"""warpscope.flatten: a JSON object's scalars as one flat row.

Nested objects become dotted names, exactly the schema's path
(docs/report-schema.md): {"replay": {"l1": {"hits": 3}}} gives
{"replay.l1.hits": 3}.  Arrays (histograms, matrices, curves) are left out
of a row: load_report gives the ones worth a table their own."""


def scalars(obj, prefix="", skip=()):
    """{dotted path: value} of every number, string, bool and null in obj."""
    row = {}
    for key, value in obj.items():
        if key in skip and not prefix:
            continue
        name = prefix + key
        if isinstance(value, dict):
            row.update(scalars(value, name + "."))
        elif not isinstance(value, list):
            row[name] = value
    return row
