"""One release gate: one image and one pin give one and the same release in every reader.

Every source in `sources/registry.py`'s SOURCES has a template under
tests/cases/release-gate/<source id>/ (README.md there): a launch of that format, carrying the
image (`%IMAGE%`, or `%TAG%` where the format writes the tag apart), or the pin the file
itself writes (`%PIN%`), or nothing (the repo's pin decides). The test renders each template
into a repo whose requirements.txt pins one release, with the image tagged with another and
the file's own pin a third, and checks that every launch is judged at the image's release
when it runs the image, else at the file's pin, else at the repo's — named, never guessed. A
source added to SOURCES without a template fails here until it has one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from vllm_lint.argv.catalog import catalog_for
from vllm_lint.files.sniff import kind_for
from vllm_lint.options import Options
from vllm_lint.pipeline import lint_file
from vllm_lint.read import yaml
from vllm_lint.release import newest_known
from vllm_lint.sources.document import Document
from vllm_lint.sources.registry import SOURCES, Source

TEMPLATES = REPO / "tests" / "cases" / "release-gate"
IMAGE_MARKS = ("%IMAGE%", "%TAG%")

# (the image's release, the file's pin, the repo's pin): equal, then apart — old releases,
# post releases and fourth parts
RELEASES = [
    ("0.6.3", "0.6.3", "0.6.3"),
    ("0.8.5.post1", "0.10.1.1", "0.9.2"),
    ("0.34.0", "0.2.7", "0.5.4"),
]


def _template(source: Source) -> dict[str, str]:
    folder = TEMPLATES / source.id
    if not folder.is_dir():
        pytest.fail(
            f"source {source.id!r} (sources/{source.module}.py) has no release-gate template: "
            f"add {folder.relative_to(REPO)}/<a file of its kind> launching vLLM with %IMAGE% "
            "(or %TAG%) where it names the image, or %PIN% where it pins vllm "
            "(tests/cases/release-gate/README.md)"
        )
    files = {
        str(p.relative_to(folder)): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
    assert files, f"{folder} is empty"
    return files


def _render(text: str, image: str, pin: str) -> str:
    return (
        text.replace("%IMAGE%", f"vllm/vllm-openai:v{image}")
        .replace("%TAG%", f"v{image}")
        .replace("%PIN%", pin)
    )


def _own_launches(source: Source, path: Path, root: Path) -> int:
    """How many launches the source's own reader finds in the rendered file (it must find one:
    the template exercises that reader, not another)."""
    text = path.read_text(encoding="utf-8")
    kind = kind_for(str(path), text[:512].encode("utf-8"))
    assert kind is source.kind, f"{path.name} is read as {kind}, not {source.kind}"
    yf = yaml.load(str(path), text) if kind.name == "YAML" else None
    doc = Document(str(path), text, lambda: catalog_for(newest_known()), yf, root=root)
    return len(list(source.reader().find(doc)))


def test_every_source_has_a_template() -> None:
    missing = [s.id for s in SOURCES if not (TEMPLATES / s.id).is_dir()]
    assert not missing, f"sources without a release-gate template: {missing}"
    stale = {p.name for p in TEMPLATES.iterdir() if p.is_dir()} - {s.id for s in SOURCES}
    assert not stale, f"templates of no source: {stale}"


@pytest.mark.parametrize(
    ("image", "pin", "repo_pin"), RELEASES, ids=["-".join(r) for r in RELEASES]
)
@pytest.mark.parametrize("source", SOURCES, ids=[s.id for s in SOURCES])
def test_one_image_and_one_pin_give_one_release_in_every_reader(
    tmp_path: Path, source: Source, image: str, pin: str, repo_pin: str
) -> None:
    files = _template(source)
    (tmp_path / "requirements.txt").write_text(f"torch\nvllm=={repo_pin}\n", encoding="utf-8")
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_render(text, image, pin), encoding="utf-8")
    judged = 0
    for name, text in files.items():
        path = tmp_path / name
        carries_image = any(mark in text for mark in IMAGE_MARKS)
        expected = image if carries_image else pin if "%PIN%" in text else repo_pin
        assert _own_launches(source, path, tmp_path) >= 1, f"{source.id}: no launch in {name}"
        result = lint_file(str(path), Options(root=tmp_path))
        assert result.invocations, f"{source.id}: {name} has no launch in the pipeline"
        for invocation, settings in zip(result.invocations, result.settings, strict=True):
            chosen = settings.release
            where = f"{source.id}: {invocation.origin} in {name}"
            assert (chosen.version, chosen.guessed) == (expected, False), (where, chosen)
            judged += 1
    assert judged
