"""TREC Web Track topic files (XML): topic numbers, types and typed subtopics, with line numbers."""

from __future__ import annotations

import xml.parsers.expat
from pathlib import Path

from .trec import malformed

__all__ = ["parse_topics"]


def parse_topics(path: Path) -> list[dict]:
    """Topics of a TREC Web Track XML file: number, type and typed subtopics, with line numbers."""
    topics: list[dict] = []
    parser = xml.parsers.expat.ParserCreate()
    parser.specified_attributes = False  # apply the DTD's default attribute values

    def start(tag, attrs):
        line = parser.CurrentLineNumber
        if tag == "topic":
            if "number" not in attrs:
                raise malformed(path, line, "a <topic> with a number attribute", f"<topic {attrs}>")
            topics.append({"number": attrs["number"].strip(), "type": attrs.get("type", ""),
                           "subtopics": [], "line": line})
        elif tag == "subtopic":
            if not topics or "number" not in attrs:
                raise malformed(path, line, "a <subtopic number=...> inside a <topic>",
                                f"<subtopic {attrs}>")
            topics[-1]["subtopics"].append((attrs["number"].strip(), attrs.get("type", "inf"), line))

    parser.StartElementHandler = start
    try:
        with open(path, "rb") as fh:
            parser.ParseFile(fh)
    except xml.parsers.expat.ExpatError as exc:
        raise malformed(path, exc.lineno, "well-formed topic XML",
                        xml.parsers.expat.ErrorString(exc.code)) from None
    if not topics:
        raise malformed(path, None, "at least one <topic>", "none")
    return topics
