"""The labeling screen (Textual), a thin view over :class:`raterlab.label.model.Labeler`.

Layout after the plugin protocol's screen: a header (item n/N and the short shown values),
what to read (long shown values, previewed; ``V`` shows them in full), the question with one
key per answer, and the keys line. Choice questions take one key; text questions take a
line (Enter submits). ``B`` (``Esc`` while typing) steps back, ``Q`` (``Ctrl+Q`` while typing)
saves and quits; the session was already saved after the last answer.
"""

from __future__ import annotations

from typing import ClassVar

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from raterlab.label.items import display
from raterlab.label.model import Labeler

PREVIEW_LINES = 8
HEADER_WIDTH = 40


def _preview(text: str, full: bool) -> str:
    lines = text.splitlines() or [""]
    if full or len(lines) <= PREVIEW_LINES:
        return text
    hidden = len(lines) - PREVIEW_LINES
    return "\n".join(lines[:PREVIEW_LINES]) + f"\n… ({hidden} more lines: press V)"


class LabelApp(App[str]):
    """Returns ``finished`` (the return was written), ``saved`` (quit) as its return value."""

    CSS = """
    #header { background: $boost; padding: 0 1; height: auto; }
    #item { height: 1fr; border: round $primary; padding: 0 1; }
    #question { height: auto; padding: 0 1; }
    #problems { color: $error; height: auto; padding: 0 1; }
    #keys { color: $text-muted; height: auto; padding: 0 1; }
    Input { margin: 0 1; }
    """
    BINDINGS: ClassVar = [Binding("ctrl+q", "save_quit", "Quit & save", priority=True)]

    def __init__(self, labeler: Labeler):
        super().__init__()
        self.labeler = labeler
        self.full = False
        self.title = f"raterlab label: {labeler.study.title}"

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with VerticalScroll(id="item"):
            yield Static(id="body")
        yield Static(id="question")
        yield Input(id="text")
        yield Static(id="problems")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.render_state()

    # -- drawing ------------------------------------------------------------------------------

    def render_state(self, problems: list[str] | None = None) -> None:
        lab = self.labeler
        text_input = self.query_one("#text", Input)
        self.query_one("#problems", Static).update(
            "\n".join(f"✗ {escape(p)}" for p in problems or [])
        )
        if lab.done:
            total = len(lab.items)
            self.query_one("#header", Static).update(f"All {total} items labelled")
            self.query_one("#body", Static).update(
                f"Session {escape(lab.session.sessionId)}: {lab.session.completedScenarios} "
                f"labelled, {lab.session.skippedScenarios} skipped."
            )
            self.query_one("#question", Static).update("Send your labels back?")
            text_input.display = False
            back = "  [B] Back" if lab.can_go_back_item else ""
            self.query_one("#keys", Static).update(
                f"\\[F] Finish: send the return{back}  \\[Q] Quit & save"
            )
            return
        self._draw_item()
        self._draw_question(text_input)

    def _draw_item(self) -> None:
        lab = self.labeler
        short, long = [], []
        for key, value in lab.item.shown.items():
            text = display(value)
            if "\n" in text or len(text) > HEADER_WIDTH:
                long.append((key, text))
            else:
                short.append(f"{key}: {escape(text)}")
        unit = lab.task.unit.title() if lab.task.unit.isidentifier() else "Item"
        position = f"{unit} {lab.session.position + 1}/{len(lab.items)}"
        self.query_one("#header", Static).update("  │  ".join([position, *short]))
        body = [
            f"[b]{escape(key.replace('_', ' ').upper())}:[/b]\n{escape(_preview(text, self.full))}"
            for key, text in long
        ]
        self.query_one("#body", Static).update("\n\n".join(body))

    def _draw_question(self, text_input: Input) -> None:
        lab = self.labeler
        q = lab.question
        required = " (required)" if q.required else ""
        lines = [f"[b]{escape(q.prompt)}[/b]{required}"]
        if q.kind == "choice":
            lines.append(
                "   ".join(f"\\[{c.key.upper()}] {escape(c.label)}".rstrip() for c in q.choices)
            )
        else:
            lines.append(escape(q.hint or "type, then Enter (Enter alone leaves it empty)"))
        if q.field in lab.answers:
            lines.append(f"current answer: {escape(lab.answers[q.field])}")
        self.query_one("#question", Static).update("\n".join(lines))
        typing = q.kind == "text"
        text_input.display = typing
        if typing:
            text_input.value = lab.answers.get(q.field, "")
            text_input.focus()
            keys = "\\[Enter] Submit  \\[Esc] Back  \\[Ctrl+Q] Quit & save"
        else:
            self.set_focus(None)
            keys = "\\[V] View in full  \\[B] Back  \\[Q] Quit & save"
        self.query_one("#keys", Static).update(keys)

    # -- input --------------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        found = self.labeler.answer(event.value)
        self.render_state([p.message for p in found])

    def on_key(self, event) -> None:
        lab = self.labeler
        typing = not lab.done and lab.question.kind == "text"
        key = event.key
        if typing:
            if key == "escape":
                event.stop()
                self._back()
            return
        event.stop()
        if key in ("q", "Q"):
            self.action_save_quit()
        elif key in ("b", "B"):
            self._back()
        elif key in ("v", "V"):
            self.full = not self.full
            self.render_state()
        elif key in ("pageup", "pagedown", "up", "down"):
            scroll = self.query_one("#item", VerticalScroll)
            getattr(scroll, f"scroll_{key.replace('page', 'page_')}")()
        elif lab.done:
            if key in ("f", "F"):
                lab.finish()
                self.exit("finished")
        elif event.character:
            found = lab.answer(event.character)
            self.render_state([p.message for p in found])

    def _back(self) -> None:
        why = self.labeler.back()
        self.render_state([why] if why else None)

    def action_save_quit(self) -> None:
        self.labeler.save()
        self.exit("saved")
