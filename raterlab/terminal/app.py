"""The labeling screen (Textual), a thin view over :class:`raterlab.terminal.model.Labeler`.

Layout after the plugin protocol's screen: a header (item n/N and the short shown values),
what to read (long shown values, previewed; a view key shows one in full: ``V`` the last one,
the response, the others the first free letter of their name, ``T`` for tool captures), the
question with one key per answer, edge-case warnings and problems, and the keys line. A pair
item (a pairwise task) shows its two responses in full under ``◀ LEFT`` and ``RIGHT ▶``, side
by side on a wide terminal and stacked on a narrow one (:class:`PairView`); the arrow keys
answer left and right there. ``G`` shows the study's guide and its edge cases. The reading
area scrolls with PageUp/PageDown on every question. Choice questions take one key; text
questions take a line (Enter submits; view keys are then ``Ctrl`` + the letter). ``B``
(``Esc`` while typing) steps back, ``Q`` (``Ctrl+Q`` while typing) saves and quits; the
session was already saved after the last answer.

Keys are read by the app alone (no widget takes focus), one at a time in the order they were
typed, each against the screen the one before it left: a burst is queued, never dropped. What
was typed before the screen could show its effect never becomes data it was not meant for,
and is refused visibly: letters typed before a text question appeared are not typed into it,
and keys typed before a refused answer's message appeared are ignored (the refusal moves on
with each refused key, so a burst is never half taken).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from textual import events
from textual._time import get_time  # the clock Textual stamps key events with
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from raterlab.design.items import display, guide_path
from raterlab.protocol.pairwise import LEFT, RIGHT, SHOWN_SIDES
from raterlab.terminal.form import ARROW_KEYS, RESERVED_KEYS, SKIP_KEY, Choice, Question
from raterlab.terminal.model import Labeler

PREVIEW_LINES = 8
HEADER_WIDTH = 40
SIDE_BY_SIDE_WIDTH = 90
"""A pair's two responses are side by side from this reading width on (a terminal of about 94
columns), else one under the other."""
ARROWS = {"left": "←", "right": "→"}
GUIDE_KEY = "g"
SCROLL_KEYS = ("pageup", "pagedown", "up", "down", "home", "end")
EDIT_KEYS = ("backspace", "delete", "left", "right", "home", "end", "ctrl+u")
"""Keys that edit the typed line of a text question (``home``/``end`` move in it there)."""


@dataclass(frozen=True)
class View:
    """A value the annotator can read in full: its key, what it shows, its label."""

    key: str
    name: str
    label: str


def _preview(text: str, full: bool, key: str) -> str:
    lines = text.splitlines() or [""]
    if full or len(lines) <= PREVIEW_LINES:
        return text
    hidden = len(lines) - PREVIEW_LINES
    return "\n".join(lines[:PREVIEW_LINES]) + f"\n… ({hidden} more lines: press {key.upper()})"


def _long(text: str) -> bool:
    return "\n" in text or len(text) > HEADER_WIDTH


@dataclass(frozen=True)
class PairView:
    """A pair's two responses, each under its side's name: side by side where the reading area
    is wide enough, else stacked; decided each time it is drawn, so it follows the terminal."""

    left: str
    right: str

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        left, right = Text(self.left), Text(self.right)
        if options.max_width >= SIDE_BY_SIDE_WIDTH:
            sides = Table(expand=True, padding=(0, 1), box=box.MINIMAL)
            sides.add_column("◀ LEFT", ratio=1, header_style="bold reverse")
            sides.add_column("RIGHT ▶", ratio=1, header_style="bold reverse")
            sides.add_row(left, right)
            yield sides
            return
        yield Text("◀ LEFT", style="bold reverse")
        yield left
        yield Text("")
        yield Text("RIGHT ▶", style="bold reverse")
        yield right


def _key_of(question: Question, choice: Choice) -> str:
    """A choice's key as shown, with its arrow where the arrow keys answer it too."""
    arrow = ARROWS.get(choice.value) if question.arrows else None
    return choice.key.upper() + (f"/{arrow}" if arrow else "")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class LabelApp(App[str]):
    """Returns ``finished`` (the return was written), ``saved`` (quit) as its return value."""

    CSS = """
    #header { background: $boost; padding: 0 1; height: auto; max-height: 3; }
    #item { height: 1fr; border: round $primary; padding: 0 1; }
    #question { height: auto; padding: 0 1; }
    #warnings { color: $warning; height: auto; padding: 0 1; }
    #problems { color: $error; height: auto; padding: 0 1; }
    #keys { color: $text-muted; height: auto; padding: 0 1; }
    """
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar = [Binding("ctrl+q", "save_quit", "Quit & save", priority=True)]

    def __init__(self, labeler: Labeler):
        super().__init__()
        self.labeler = labeler
        self.viewing: str | None = None
        """The shown key (or ``guide``) read in full instead of the item, if any."""
        self.typed = ""
        self.cursor = 0
        self.problems: list[str] = []
        """Why the last answer or key was refused (shown until the next key is taken)."""
        self.ignored: list[str] = []
        """Keys ignored since the screen last changed, and why (shown under the question)."""
        self._ignored_why = ""
        self._ignored_shown = 0.0
        self._asked: tuple[int, int] | None = None
        self._fence = 0.0
        """Keys typed before this moment (a refusal appeared) are ignored."""
        self._text_fence = 0.0
        """Letters typed before this moment (the text question appeared) are not typed."""
        self.title = f"raterlab label: {labeler.study.title}"

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with VerticalScroll(id="item", can_focus=False):
            yield Static(id="body")
        yield Static(id="question")
        yield Static(id="warnings")
        yield Static(id="problems")
        yield Static(id="keys")

    def on_mount(self) -> None:
        notice = self.labeler.notice
        self.render_state([notice] if notice else None)
        self.labeler.shown()
        self.run_worker(self._warm_up, thread=True, exit_on_error=False)

    @staticmethod
    def _warm_up() -> None:
        """Import what checking an answer needs while the annotator reads the first item."""
        import raterlab.terminal.answers  # noqa: F401

    # -- what can be viewed -----------------------------------------------------------------

    def views(self) -> list[View]:
        """The current item's long shown values with their view keys: ``V`` for the last
        (the response), the first free letter of its name for each other one. A pair's two
        responses are always shown in full (they scroll), so they have none."""
        lab = self.labeler
        if lab.done:
            return []
        sides = SHOWN_SIDES if lab.task.pairwise is not None else ()
        names = [k for k, v in lab.item.shown.items() if _long(display(v)) and k not in sides]
        taken = set(RESERVED_KEYS) | {GUIDE_KEY, SKIP_KEY}
        taken |= {c.key for q in lab.questions for c in q.choices}
        out = []
        for name in names[:-1]:
            words = name.replace("-", "_").split("_")
            key = next((w[0].lower() for w in words if w and w[0].lower() not in taken), None)
            if key and key.isalpha():
                taken.add(key)
                out.append(View(key, name, name.replace("_", " ")))
        if names:
            out.append(View("v", names[-1], names[-1].replace("_", " ")))
        return sorted(out, key=lambda v: v.key != "v")

    # -- drawing ------------------------------------------------------------------------------

    def render_state(self, problems: list[str] | None = None) -> None:
        lab = self.labeler
        now = get_time()
        asked = (lab.session.position, lab.question_index)
        if asked != self._asked:
            if self._asked is None or asked[0] != self._asked[0]:
                self.viewing = None
            self._asked = asked
            self._text_fence = now
            self.typed = "" if lab.done else lab.answers.get(lab.question.field, "")
            self.cursor = len(self.typed)
        if problems is not None:
            self.problems = problems
            self._fence = now if problems else self._fence
        notes = list(self.problems)
        if self.ignored:
            keys = f"{_plural(len(self.ignored), 'key')} ignored ({', '.join(self.ignored)})"
            notes.append(f"{keys}: {self._ignored_why}")
        warnings = lab.warnings()
        self._message("#problems", [f"✗ {escape(p)}" for p in notes])
        self._message("#warnings", [f"⚠ {escape(w)}" for w in warnings])
        if lab.done:
            self._draw_done()
            return
        self._draw_item()
        self._draw_question()

    def _message(self, widget: str, lines: list[str]) -> None:
        """Fill a message line; an empty one takes no room from the reading area."""
        static = self.query_one(widget, Static)
        static.update("\n".join(lines))
        static.display = bool(lines)

    def _draw_done(self) -> None:
        lab = self.labeler
        self.query_one("#header", Static).update(f"All {len(lab.items)} items labelled")
        self.query_one("#body", Static).update(
            f"Session {escape(lab.session.sessionId)}: {lab.session.completedScenarios} "
            f"labelled, {lab.session.skippedScenarios} skipped."
        )
        self.query_one("#question", Static).update("Send your labels back?")
        back = "  \\[B] Back" if lab.can_go_back_item else ""
        self.query_one("#keys", Static).update(
            f"\\[F] Finish: send the return{back}  \\[Q] Quit & save"
        )

    def _draw_item(self) -> None:
        lab = self.labeler
        short, long = [], []
        for key, value in lab.item.shown.items():
            text = display(value)
            if _long(text):
                long.append((key, text))
            else:
                short.append(f"{key}: {escape(text)}")
        unit = lab.task.unit.title() if lab.task.unit.isidentifier() else "Item"
        position = f"{unit} {lab.session.position + 1}/{len(lab.items)}"
        every = lab.study.packet.break_every
        if every and lab.session.position and lab.session.position % every == 0:
            position += f"  │  {lab.session.position} done: take a 5-minute break (the guide)"
        body = self.query_one("#body", Static)
        if self.viewing is not None:
            self.query_one("#header", Static).update(f"{position}  │  {self._view_title()}")
            body.update(escape(self._view_text()))
            return
        self.query_one("#header", Static).update("  │  ".join([position, *short]))
        keys = {v.name: v.key for v in self.views()}
        text = "\n\n".join(
            f"[b]{escape(key.replace('_', ' ').upper())}:[/b]\n"
            f"{escape(_preview(text, False, keys.get(key, 'v')))}"
            for key, text in long
            if key not in SHOWN_SIDES or lab.task.pairwise is None
        )
        body.update(self._pair(text) if lab.task.pairwise is not None else text)

    def _pair(self, above: str) -> RenderableType:
        """A pair item: what both responses answer, then the two responses in full."""
        shown = self.labeler.item.shown
        sides = PairView(display(shown.get(LEFT, "")), display(shown.get(RIGHT, "")))
        return Group(Text.from_markup(above + "\n"), sides) if above else sides

    def _view_title(self) -> str:
        close = "Esc" if self.labeler.question.kind == "choice" else "the same key"
        what = "the guide" if self.viewing == "guide" else escape(self.viewing or "")
        return f"reading {what.replace('_', ' ')} in full ({close} returns to the item)"

    def _view_text(self) -> str:
        lab = self.labeler
        if self.viewing != "guide":
            return display(lab.item.shown.get(self.viewing or "", ""))
        path = guide_path(lab.home, lab.study, lab.session.labelerId, lab.session.runId)
        text = path.read_text(encoding="utf-8") if path and path.is_file() else "(no guide)"
        cases = [c.message for c in lab.study.edge_cases if c.task == lab.task_name]
        if cases:
            text += "\n\nEDGE CASES (checked when your labels come back):\n"
            text += "\n".join(f"- {message}" for message in cases)
        return text

    def _draw_question(self) -> None:
        lab = self.labeler
        q = lab.question
        required = " (required)" if q.required else ""
        lines = [f"[b]{escape(q.prompt)}[/b]{required}"]
        if q.kind == "choice":
            lines.append(
                "   ".join(f"\\[{_key_of(q, c)}] {escape(c.label)}".rstrip() for c in q.choices)
            )
            if q.field in lab.answers:
                lines.append(f"current answer: {escape(lab.answers[q.field])}")
        else:
            lines.append(escape(q.hint or "type, then Enter (Enter alone leaves it empty)"))
            at = self.cursor
            under = escape(self.typed[at : at + 1] or " ")
            lines.append(
                f"> {escape(self.typed[:at])}[reverse]{under}[/reverse]"
                f"{escape(self.typed[at + 1 :])}"
            )
        self.query_one("#question", Static).update("\n".join(lines))
        self.query_one("#keys", Static).update(self._keys_line(q.kind == "text"))

    def _keys_line(self, typing: bool) -> str:
        views = [(v.key, f"View full {v.label}") for v in self.views()]
        views.append((GUIDE_KEY, "Guide & edge cases"))
        if typing:
            keys = [("Enter", "Submit"), ("Esc", "Back")]
            keys += [(f"Ctrl+{k.upper()}", label) for k, label in views]
            keys.append(("Ctrl+Q", "Quit & save"))
        else:
            keys = [(k.upper(), label) for k, label in views]
            keys += [("B", "Back"), ("Q", "Quit & save")]
        return "  ".join(f"\\[{k}] {label}" for k, label in keys) + "  \\[PgUp/PgDn] Scroll"

    # -- input --------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        lab = self.labeler
        key = event.key
        if key in ("pageup", "pagedown") or (key in SCROLL_KEYS and not self._typing()):
            self._scroll(key)
            return
        if event.time < self._fence:
            self._ignore(event, "typed before the message above appeared")
            return
        if event.time > self._ignored_shown:
            self.ignored = []
        self.problems = []
        if lab.done:
            self._on_done_key(key)
        elif self._typing():
            self._on_text_key(event)
        else:
            self._on_choice_key(event)

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text goes into a text answer (one line); elsewhere it is refused."""
        event.stop()
        if not self._typing():
            self.render_state([f"pasted text ignored: {self.labeler.question.prompt} takes a key"])
            return
        self._insert(" ".join(event.text.splitlines()))

    def _typing(self) -> bool:
        return not self.labeler.done and self.labeler.question.kind == "text"

    def _ignore(self, event: events.Key, why: str) -> None:
        """Refuse a key visibly; keys typed before the refusal shows are refused with it (the
        fence moves on), so a burst is never half taken."""
        if not self.ignored:
            self._ignored_why = why
        self.ignored.append(event.character if event.is_printable else event.key)
        self.render_state()
        self._ignored_shown = self._fence = self._text_fence = get_time()

    def _scroll(self, key: str) -> None:
        scroll = self.query_one("#item", VerticalScroll)
        name = {"pageup": "page_up", "pagedown": "page_down"}.get(key, key)
        getattr(scroll, f"scroll_{name}")(animate=False)

    def _on_done_key(self, key: str) -> None:
        if key in ("q", "Q"):
            self.action_save_quit()
        elif key in ("b", "B"):
            self._back()
        elif key in ("f", "F"):
            self.labeler.finish()
            self.exit("finished")

    def _on_choice_key(self, event: events.Key) -> None:
        key = event.key
        lowered = (event.character or "").lower()
        if lowered == "q":
            self.action_save_quit()
        elif lowered == "b":
            self._back()
        elif key == "escape" and self.viewing is not None:
            self._toggle_view(self.viewing)
        elif lowered == GUIDE_KEY:
            self._toggle_view("guide")
        elif lowered in {v.key for v in self.views()}:
            self._toggle_view(next(v.name for v in self.views() if v.key == lowered))
        elif lowered == "v":
            self.render_state(["nothing to view in full: every value of this item is on screen"])
        elif self.labeler.question.arrows and key in ARROW_KEYS:
            found = self.labeler.answer(ARROW_KEYS[key])
            self.render_state([p.message for p in found])
        elif event.character and event.is_printable:
            found = self.labeler.answer(event.character)
            self.render_state([p.message for p in found])
        else:
            self.render_state([f"{key} does nothing here"])

    def _on_text_key(self, event: events.Key) -> None:
        key = event.key
        control = key.removeprefix("ctrl+") if key.startswith("ctrl+") else None
        views = {v.key: v.name for v in self.views()} | {GUIDE_KEY: "guide"}
        if key == "enter":
            found = self.labeler.answer(self.typed)
            self.render_state([p.message for p in found])
        elif key == "escape":
            self._back()
        elif control in views:
            self._toggle_view(views[control])
        elif key in EDIT_KEYS:
            self._edit(key)
        elif event.is_printable and event.character:
            if event.time < self._text_fence:
                why = "typed before this text question appeared, so not typed in"
                self._ignore(event, why)
                return
            self._insert(event.character)
        else:
            self.render_state([f"{key} does nothing here"])

    def _insert(self, text: str) -> None:
        self.typed = self.typed[: self.cursor] + text + self.typed[self.cursor :]
        self.cursor += len(text)
        self._draw_question()

    def _edit(self, key: str) -> None:
        at = self.cursor
        if key == "backspace" and at > 0:
            self.typed, self.cursor = self.typed[: at - 1] + self.typed[at:], at - 1
        elif key == "delete":
            self.typed = self.typed[:at] + self.typed[at + 1 :]
        elif key in ("left", "right"):
            self.cursor = max(0, min(len(self.typed), at + (1 if key == "right" else -1)))
        elif key in ("home", "end"):
            self.cursor = 0 if key == "home" else len(self.typed)
        elif key == "ctrl+u":
            self.typed, self.cursor = "", 0
        self._draw_question()

    def _toggle_view(self, name: str) -> None:
        self.viewing = None if self.viewing == name else name
        self.query_one("#item", VerticalScroll).scroll_home(animate=False)
        self.render_state()

    def _back(self) -> None:
        why = self.labeler.back()
        self.render_state([why] if why else None)

    def action_save_quit(self) -> None:
        self.labeler.save()
        self.exit("saved")
