#!/usr/bin/env python3
"""Reads a quiz file a learning platform imports, independently of lessonplan's writers.

Written from each format's documentation (Moodle's GIFT, Moodle XML and Aiken pages and its GIFT/Aiken
importers' rules, IMS QTI 1.2 ASI, IMS Common Cartridge 1.1, Blackboard's "Upload questions" page, Kahoot's
quiz spreadsheet template), with only the Python standard library and LibreOffice (for .xlsx).

Usage: lms_read.py FORMAT FILE  ->  JSON on stdout:
  {"items": [{"stem": str, "options": [str], "key": int, "feedback": [str]}], "extra": {...}}
Exits 1 with a sentence on stderr when the file does not follow its format.
"""
import csv
import html
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile


class Invalid(Exception):
    pass


def need(condition, message):
    if not condition:
        raise Invalid(message)


class _Text(html.parser.HTMLParser):
    """The text a browser shows for an HTML fragment: character data, a <br> as a line break."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.parts = []

    def handle_starttag(self, tag, attrs):
        need(tag == "br", f"unexpected HTML element <{tag}> in a text field")
        self.parts.append("\n")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        need(False, f"unexpected HTML end tag </{tag}>")

    def handle_data(self, data):
        # A browser shows a raw line break or tab as a space: the writer must spell them <br> and &#9;.
        need("\n" not in data and "\t" not in data, "a raw line break or tab in an HTML field")
        self.parts.append(data)

    def handle_entityref(self, name):
        self.parts.append(html.unescape(f"&{name};"))

    def handle_charref(self, name):
        self.parts.append(html.unescape(f"&#{name};"))


def html_text(fragment):
    parser = _Text()
    parser.feed(fragment or "")
    parser.close()
    return "".join(parser.parts)


def local(tag):
    return tag.rsplit("}", 1)[-1]


def children(element, name):
    return [child for child in element if local(child.tag) == name]


def child(element, name):
    found = children(element, name)
    need(len(found) == 1, f"<{local(element.tag)}> needs one <{name}>, has {len(found)}")
    return found[0]


def descendants(element, name):
    return [node for node in element.iter() if local(node.tag) == name]


# GIFT (docs.moodle.org/en/GIFT_format): blank lines separate questions, // starts a comment line,
# ::title::, the answers in { }, = the right answer, ~ a wrong one, # its feedback, [format] tags,
# and a backslash before ~ = # { } : (or \\, \n for a line break) makes the character plain text.
GIFT_SPECIAL = "~=#{}:"


def gift_tokens(text):
    """(character, escaped) pairs."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in GIFT_SPECIAL + "\\n":
            nxt = text[i + 1]
            out.append(("\n" if nxt == "n" else nxt, True))
            i += 2
            continue
        out.append((c, False))
        i += 1
    return out


def gift_string(tokens):
    return "".join(c for c, _ in tokens)


def gift_split(tokens, marks):
    """Splits at unescaped characters in marks, returning (mark, part) pairs."""
    parts, mark, current = [], None, []
    for c, escaped in tokens:
        if c in marks and not escaped:
            parts.append((mark, current))
            mark, current = c, []
        else:
            current.append((c, escaped))
    parts.append((mark, current))
    return parts


def gift_format(tokens):
    """A [html] / [plain] / [moodle] / [markdown] tag at the start, then the text (trimmed, as Moodle trims)."""
    text = gift_string(tokens).strip()
    lead = len(gift_string(tokens)) - len(gift_string(tokens).lstrip())
    rest = tokens[lead:]
    fmt = "moodle"
    match = re.match(r"\[(html|plain|moodle|markdown)\]", gift_string(rest))
    if match and not any(e for _, e in rest[: match.end()]):
        fmt = match.group(1)
        text = gift_string(rest[match.end():]).strip()
    return fmt, text


def shown(fmt, text):
    """What a student reads: plain text as it is, HTML as a browser shows it."""
    return html_text(text) if fmt == "html" else text


def read_gift(path):
    with open(path, encoding="utf-8") as handle:
        raw = handle.read()
    items = []
    for block in re.split(r"\n[ \t]*\n", raw):
        lines = [("" if line.strip().startswith("//") else line) for line in block.split("\n")]
        text = "\n".join(lines).strip()
        if not text:
            continue
        tokens = gift_tokens(text)
        title = None
        if gift_string(tokens[:2]) == "::" and not tokens[0][1]:
            rest = tokens[2:]
            end = next(i for i in range(len(rest) - 1) if gift_string(rest[i:i + 2]) == "::" and not rest[i][1])
            title = gift_string(rest[:end]).strip()
            tokens = rest[end + 2:]
        opens = [i for i, (c, e) in enumerate(tokens) if c == "{" and not e]
        closes = [i for i, (c, e) in enumerate(tokens) if c == "}" and not e]
        need(len(opens) == 1 and len(closes) == 1 and opens[0] < closes[0], f"question {title}: needs one {{ … }}")
        need(not gift_string(tokens[closes[0] + 1:]).strip(), f"question {title}: text after }}")
        fmt, stem = gift_format(tokens[: opens[0]])
        options, feedback, key = [], [], []
        for mark, part in gift_split(tokens[opens[0] + 1: closes[0]], "~="):
            if mark is None:
                need(not gift_string(part).strip(), f"question {title}: text before the first answer")
                continue
            answer, *comment = [p for _, p in gift_split(part, "#")]
            need(len(comment) <= 1, f"question {title}: an answer with two #")
            afmt, atext = gift_format(answer)
            need(not re.match(r"%-?\d", atext) or afmt != "moodle", f"question {title}: an answer weight")
            options.append(shown(afmt if afmt != "moodle" else fmt, atext))
            if comment:
                ffmt, ftext = gift_format(comment[0])
                feedback.append(shown(ffmt if ffmt != "moodle" else fmt, ftext))
            else:
                feedback.append("")
            if mark == "=":
                key.append(len(options) - 1)
        need(len(key) == 1, f"question {title}: needs exactly one = answer")
        items.append({"title": title, "stem": shown(fmt, stem), "options": options, "key": key[0], "feedback": feedback})
    return {"items": items, "extra": {}}


# Moodle XML (docs.moodle.org/en/Moodle_XML_format).
def moodle_text(element):
    fmt = element.get("format", "moodle_auto_format")
    text = child(element, "text").text or ""
    need(fmt in ("html", "plain_text"), f"text format {fmt} is not one this reader knows")
    return html_text(text) if fmt == "html" else text


def read_moodle(path):
    root = ET.parse(path).getroot()
    need(root.tag == "quiz", "the root element is not <quiz>")
    items = []
    for question in children(root, "question"):
        need(question.get("type") == "multichoice", "a question that is not multichoice")
        need(child(question, "single").text == "true", "a question that is not single-answer")
        options, feedback, key = [], [], []
        for answer in children(question, "answer"):
            options.append(moodle_text(answer))
            found = children(answer, "feedback")
            feedback.append(moodle_text(found[0]) if found else "")
            if float(answer.get("fraction")) == 100:
                key.append(len(options) - 1)
            else:
                need(float(answer.get("fraction")) == 0, "a partly right answer")
        need(len(key) == 1, "a question without exactly one right answer")
        items.append({
            "title": child(child(question, "name"), "text").text, "stem": moodle_text(child(question, "questiontext")),
            "options": options, "key": key[0], "feedback": feedback})
    return {"items": items, "extra": {}}


# Aiken (docs.moodle.org/en/Aiken_format): the question on one line, then "A. " or "A) " answers, then
# "ANSWER: X"; Moodle trims each line and escapes the text as HTML itself.
def read_aiken(path):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    items, current = [], None
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if re.match(r"^[A-Z][.)][ \t]", line):
            need(current is not None, "an answer before any question")
            current["options"].append(line[2:].strip())
            need(line[0] == chr(ord("A") + len(current["options"]) - 1), "answer letters out of order")
        elif line.startswith("ANSWER:"):
            need(current is not None and current["options"], "ANSWER: before the answers")
            letter = line[len("ANSWER:"):].strip()
            need(len(letter) == 1, "ANSWER: needs one letter")
            current["key"] = ord(letter) - ord("A")
            need(0 <= current["key"] < len(current["options"]), "ANSWER: names no answer")
            current["feedback"] = [""] * len(current["options"])
            items.append(current)
            current = None
        else:
            need(current is None, "a question of more than one line")
            current = {"stem": line, "options": []}
    need(current is None, "a question without ANSWER:")
    return {"items": items, "extra": {}}


# Blackboard (help.blackboard.com "Upload questions"): one question per row, fields separated by tabs,
# MC, the question, then answer / correct|incorrect pairs; no header row, no blank rows.
def read_blackboard(path):
    with open(path, encoding="utf-8", newline="") as handle:
        raw = handle.read()
    need(raw.endswith("\n"), "the last row has no line end")
    items = []
    for row in raw[:-1].split("\n"):
        need(row.strip() != "", "a blank row")
        fields = row.split("\t")
        need(fields[0] == "MC", "a row that is not MC")
        need(len(fields) >= 6 and len(fields) % 2 == 0, "an MC row needs the question and answer/correct pairs")
        options = [html_text(fields[i]) for i in range(2, len(fields), 2)]
        marks = fields[3::2]
        need(all(m in ("correct", "incorrect") for m in marks), "a mark that is not correct or incorrect")
        need(marks.count("correct") == 1, "not exactly one correct answer")
        items.append({"stem": html_text(fields[1]), "options": options, "key": marks.index("correct"),
                      "feedback": [""] * len(options)})
    return {"items": items, "extra": {}}


# IMS QTI 1.2 ASI: items with a single response_lid, the right answer setting SCORE, answer feedback through
# displayfeedback → itemfeedback.
def qti_text(material):
    text = child(material, "mattext")
    kind = text.get("texttype", "text/plain")
    need(kind in ("text/html", "text/plain"), f"mattext of type {kind}")
    return html_text(text.text or "") if kind == "text/html" else (text.text or "")


def read_qti_document(data):
    root = ET.fromstring(data)
    need(local(root.tag) == "questestinterop", "the assessment's root is not questestinterop")
    assessments = children(root, "assessment")
    need(len(assessments) == 1, f"{len(assessments)} assessments, not one")
    assessment = assessments[0]
    items = []
    for item in descendants(assessment, "item"):
        presentation = child(item, "presentation")
        stem = qti_text(child(presentation, "material"))
        lid = child(presentation, "response_lid")
        need(lid.get("rcardinality") == "Single", "a response that is not single")
        labels = descendants(lid, "response_label")
        idents = [label.get("ident") for label in labels]
        need(len(set(idents)) == len(idents), "two answers with one ident")
        options = [qti_text(child(label, "material")) for label in labels]
        feedback_text = {}
        for fb in children(item, "itemfeedback"):
            feedback_text[fb.get("ident")] = qti_text(child(child(fb, "flow_mat"), "material"))
        key, feedback = [], [""] * len(options)
        for condition in descendants(child(item, "resprocessing"), "respcondition"):
            equal = child(child(condition, "conditionvar"), "varequal")
            need(equal.get("respident") == lid.get("ident"), "a condition on another response")
            index = idents.index(equal.text)
            for setvar in children(condition, "setvar"):
                if setvar.get("varname") == "SCORE" and float(setvar.text) == 100:
                    key.append(index)
            for display in children(condition, "displayfeedback"):
                feedback[index] = feedback_text[display.get("linkrefid")]
        need(len(key) == 1, "an item without exactly one answer scoring 100")
        metadata = {child(f, "fieldlabel").text: child(f, "fieldentry").text for f in descendants(item, "qtimetadatafield")}
        items.append({"title": item.get("title"), "stem": stem, "options": options, "key": key[0], "feedback": feedback,
                      "metadata": metadata})
    metadata = {child(f, "fieldlabel").text: child(f, "fieldentry").text
                for f in children(child(assessment, "qtimetadata"), "qtimetadatafield")}
    return items, {"title": assessment.get("title"), "metadata": metadata}


def open_package(path):
    archive = zipfile.ZipFile(path)
    need(archive.testzip() is None, "a damaged zip entry")
    names = archive.namelist()
    need("imsmanifest.xml" in names, "no imsmanifest.xml at the zip's root")
    return archive, ET.fromstring(archive.read("imsmanifest.xml"))


def read_qti(path):
    archive, manifest = open_package(path)
    resources = [r for r in descendants(manifest, "resource") if r.get("type") == "imsqti_xmlv1p2"]
    need(len(resources) == 1, f"{len(resources)} QTI resources in the manifest, not one")
    href = child(resources[0], "file").get("href")
    items, extra = read_qti_document(archive.read(href))
    extra["files"] = archive.namelist()
    return {"items": items, "extra": extra}


# IMS Common Cartridge 1.1: the manifest's schema and version, an organization whose items point at
# resources, webcontent pages and one imsqti_xmlv1p2/imscc_xmlv1p1/assessment.
def read_imscc(path):
    archive, manifest = open_package(path)
    metadata = child(manifest, "metadata")
    need(child(metadata, "schema").text == "IMS Common Cartridge", "the manifest's schema is not IMS Common Cartridge")
    need(child(metadata, "schemaversion").text in ("1.1.0", "1.2.0", "1.3.0"), "an unknown cartridge version")
    resources = {r.get("identifier"): r for r in descendants(manifest, "resource")}
    names = archive.namelist()
    for resource in resources.values():
        for file in children(resource, "file"):
            need(file.get("href") in names, f"the manifest names {file.get('href')}, which the zip lacks")
    titles = {}
    for item in descendants(child(manifest, "organizations"), "item"):
        ref = item.get("identifierref")
        if ref:
            need(ref in resources, f"an organization item points at no resource ({ref})")
            titles[ref] = child(item, "title").text
    assessments = [r for r in resources.values() if r.get("type") == "imsqti_xmlv1p2/imscc_xmlv1p1/assessment"]
    need(len(assessments) == 1, f"{len(assessments)} assessments, not one")
    items, extra = read_qti_document(archive.read(child(assessments[0], "file").get("href")))
    pages = []
    for identifier, resource in resources.items():
        if resource.get("type") != "webcontent":
            continue
        roles = [v.text for v in descendants(resource, "value")]
        page = archive.read(resource.get("href")).decode("utf-8")
        text = re.sub(r"<[^>]+>", " ", page)
        pages.append({"title": titles.get(identifier), "instructor": "Instructor" in roles,
                      "text": " ".join(html.unescape(text).split())})
    extra["pages"] = pages
    extra["files"] = names
    return {"items": items, "extra": extra}


# Kahoot's quiz spreadsheet template: question rows from row 9: number, question, answers 1-4, time limit,
# correct answer number(s). Opened with LibreOffice and read back as CSV.
def read_kahoot(path):
    need(zipfile.is_zipfile(path), "an .xlsx is a zip, and this is not one")
    with tempfile.TemporaryDirectory() as folder:
        profile = "file://" + os.path.join(folder, "profile")
        subprocess.run(
            ["soffice", f"-env:UserInstallation={profile}", "--headless", "--norestore", "--convert-to",
             "csv:Text - txt - csv (StarCalc):44,34,76,1", "--outdir", folder, path],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=240)
        out = os.path.join(folder, os.path.splitext(os.path.basename(path))[0] + ".csv")
        need(os.path.exists(out), "LibreOffice could not open the spreadsheet")
        with open(out, encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
    need(len(rows) >= 9, "no question rows")
    need(rows[7][1].startswith("Question") and rows[7][6].startswith("Time limit"), "row 8 is not the template's headings")
    items = []
    for row in rows[8:]:
        if not any(cell.strip() for cell in row):
            continue
        row = row + [""] * (8 - len(row))
        options = [cell for cell in row[2:6] if cell != ""]
        need(2 <= len(options) <= 4, "a question without 2 to 4 answers")
        need(int(row[6]) in (5, 10, 20, 30, 60, 90, 120, 240), "a time limit Kahoot does not offer")
        correct = [int(x) for x in row[7].split(",")]
        need(len(correct) == 1 and 1 <= correct[0] <= len(options), "a correct answer that is no answer")
        need(len(row[1]) <= 120 and all(len(o) <= 75 for o in options), "a text over Kahoot's limits")
        items.append({"number": row[0], "stem": row[1], "options": options, "key": correct[0] - 1,
                      "feedback": [""] * len(options), "time": int(row[6])})
    return {"items": items, "extra": {}}


READERS = {"gift": read_gift, "moodle": read_moodle, "aiken": read_aiken, "blackboard": read_blackboard,
           "qti": read_qti, "imscc": read_imscc, "kahoot": read_kahoot}

if __name__ == "__main__":
    try:
        result = READERS[sys.argv[1]](sys.argv[2])
    except (Invalid, ET.ParseError, zipfile.BadZipFile, KeyError, ValueError, StopIteration) as error:
        print(f"{sys.argv[1]}: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)
    json.dump(result, sys.stdout, ensure_ascii=False)
