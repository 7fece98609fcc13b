"""Material for ``correctness_ab``: the team's engineering rules and 50 coding prompts.

Each prompt has a rule-neutral ``core`` answer, and for every rule that applies to it a
``follow`` paragraph (the answer respects the team rule) and a ``lapse`` paragraph (it
ignores or contradicts the rule; an empty string means the answer simply omits the point).
Some prompts also carry a ``wrong`` core with a technical error in it. ``generate.py``
assembles the responses of conditions A and B from these pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._text import prose


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    text: str


@dataclass(frozen=True)
class CodingPrompt:
    category: str
    prompt: str
    rules: tuple[str, ...]
    core: str
    follow: dict[str, str]
    lapse: dict[str, str]
    wrong: str | None = None


MODEL = "assistant-2026-10"

CATEGORY_TITLES: dict[str, str] = {
    "api_design": "API design",
    "security": "Security",
    "data_modelling": "Data modelling",
    "error_handling": "Error handling",
    "performance": "Performance",
}

RULES: dict[str, list[Rule]] = {
    "api_design": [
        Rule(
            "api.retry",
            "Bounded retries with backoff",
            "Clients retry only transport errors, 429 and 502/503/504, at most 3 attempts in "
            "total, with exponential backoff and full jitter; a `Retry-After` header wins over "
            "the computed delay.",
        ),
        Rule(
            "api.idempotency",
            "Idempotency keys on retried writes",
            "Every POST (and any other non-idempotent write) that a client may retry carries an "
            "`Idempotency-Key`; the server stores key, request hash and response for 24 hours "
            "and replays the stored response for duplicates.",
        ),
        Rule(
            "api.pagination",
            "Cursor pagination",
            "Collections are paginated with an opaque `next_cursor` (keyset underneath), "
            "`limit` defaults to 25 and is capped at 100; no offset/page-number pagination and "
            "no total counts on large collections.",
        ),
        Rule(
            "api.versioning",
            "Additive changes within a major version",
            "Public APIs carry the major version in the path (`/v1/`); inside a version only "
            "additive, optional changes are allowed. Removals and new required fields go to the "
            "next version, announced with `Deprecation` and `Sunset` headers at least six "
            "months ahead.",
        ),
        Rule(
            "api.errors",
            "Problem details for errors",
            "Error responses use `application/problem+json` (RFC 9457) with `type`, `title`, "
            "`status`, `detail`; validation errors list every failing field in an `errors` array "
            "with a JSON Pointer.",
        ),
    ],
    "security": [
        Rule(
            "sec.secrets",
            "Secrets never in code, config or logs",
            "Secrets come from the secrets manager at runtime, never from the repository, images "
            "or CI logs. A secret that was exposed anywhere is rotated, not just deleted.",
        ),
        Rule(
            "sec.sql_injection",
            "Parameterised SQL only",
            "Values are always bound parameters, never formatted into SQL text (no f-strings, "
            "`%`, concatenation or hand-escaping). Identifiers such as sort columns come from a "
            "fixed allow-list in code.",
        ),
        Rule(
            "sec.authz",
            "Object-level authorization on the server",
            "Every request checks server-side that the caller may act on that specific object "
            "(tenant and role), deny by default. Hidden UI elements and unguessable IDs are not "
            "access control.",
        ),
        Rule(
            "sec.crypto",
            "Vetted primitives only",
            "Use vetted libraries: Argon2id or bcrypt for passwords, HMAC-SHA256 for signatures, "
            "constant-time comparison for secrets and signatures. No home-made schemes, no fast "
            "hashes for passwords.",
        ),
    ],
    "data_modelling": [
        Rule(
            "data.migrations",
            "Expand/contract migrations",
            "Schema changes must be compatible with the code version before and after them "
            "(expand, migrate, contract across separate deploys). Backfills run in batches, and "
            "every migration has a down step.",
        ),
        Rule(
            "data.nullability",
            "NOT NULL by default",
            "Columns are `NOT NULL` unless absence is meaningful; a nullable column gets a "
            "comment saying what NULL means.",
        ),
        Rule(
            "data.indexes",
            "Index foreign keys, build online",
            "Every foreign key column has an index (unless the primary key leads with it). "
            "Indexes on existing large tables are built with `CREATE INDEX CONCURRENTLY`.",
        ),
        Rule(
            "data.money",
            "Money as integer minor units",
            "Amounts are stored as `bigint` minor units together with an ISO 4217 currency "
            "column; never `float`/`double`, and arithmetic stays in integers or `Decimal`.",
        ),
        Rule(
            "data.timestamps",
            "Instants as timestamptz in UTC",
            "Points in time are `timestamptz`, stored and compared in UTC; a user's time zone is "
            "stored separately as an IANA name when local-time semantics matter.",
        ),
    ],
    "error_handling": [
        Rule(
            "err.context",
            "Wrap with context, keep the cause",
            "Errors crossing a layer are wrapped with what was being attempted (`raise ... from "
            'exc`, `fmt.Errorf("...: %w", err)`, `cause`); no bare `except`, no swallowed '
            "exceptions, no returning `None` for failure.",
        ),
        Rule(
            "err.retry_budget",
            "Retry budget",
            "Retries are bounded per call (max 3 attempts) and per dependency (retries at most "
            "10% of calls, otherwise stop and alert). 4xx responses other than 408/429 are never "
            "retried; exhausted work goes to a dead-letter queue.",
        ),
        Rule(
            "err.logging",
            "Log once, at the boundary",
            "An error is logged once, where it is handled (request handler, job runner), as a "
            "structured event with the request or job id; no log-and-rethrow in inner layers.",
        ),
        Rule(
            "err.user_messages",
            "Safe user-facing messages",
            "Messages shown to users or returned by public APIs never contain exception text, "
            "stack traces, hostnames or SQL; they carry a request id to quote to support.",
        ),
    ],
    "performance": [
        Rule(
            "perf.n_plus_one",
            "No queries in loops",
            "Related data is loaded in batches (`select_related`/`prefetch_related`, `includes`, "
            "DataLoader, `IN` queries); an N+1 is fixed at the query, not hidden behind a cache.",
        ),
        Rule(
            "perf.caching",
            "Caches have a TTL and an invalidation path",
            "Every cache has an explicit TTL, a size bound and a documented invalidation path; "
            "keys include a schema version (and the tenant where relevant).",
        ),
        Rule(
            "perf.measure",
            "Measure before optimising",
            "Performance changes start from a measurement (metrics, profile, `EXPLAIN ANALYZE`) "
            "and the PR shows before/after numbers.",
        ),
        Rule(
            "perf.timeouts",
            "Every remote call has a timeout",
            "Every network call has an explicit connect and read timeout that fits the caller's "
            "latency budget; no library defaults, no unbounded waits.",
        ),
    ],
}

OPENERS: list[str] = [
    "",
    "",
    "",
    "Here's how I'd approach it.",
    "This comes up a lot; here's the approach I'd take.",
]

CLOSERS: list[str] = [
    "",
    "",
    "",
    "If you paste the surrounding code I can adapt this to it.",
    "Happy to sketch the tests for this as well.",
    "Let me know which framework version you're on if anything here doesn't match.",
]

MEMORY_NOTES: list[str] = [
    "This is also what your team's `{rule}` rule asks for.",
    "(Per your team conventions, `{rule}`.)",
    "Your team notes cover this under `{rule}`.",
]


def _p(
    category: str,
    prompt: str,
    rules: tuple[str, ...],
    core: str,
    follow: dict[str, str],
    lapse: dict[str, str],
    wrong: str | None = None,
) -> CodingPrompt:
    return CodingPrompt(
        category=category,
        prompt=prose(prompt),
        rules=rules,
        core=prose(core),
        follow={k: prose(v) for k, v in follow.items()},
        lapse={k: prose(v) for k, v in lapse.items()},
        wrong=prose(wrong) if wrong else None,
    )


PROMPTS: list[CodingPrompt] = [
    # ------------------------------------------------------------------ api_design
    _p(
        "api_design",
        """
        Our mobile app calls POST /v1/payments and on flaky networks the request sometimes
        times out. How should the client retry without charging the customer twice?
        """,
        ("api.retry", "api.idempotency"),
        """
        Two separate questions: *when* to retry, and *what makes a retry safe*. Retry only
        failures where the request may not have been processed or was explicitly throttled:
        connection errors, timeouts, 429 and 503. A 400 or 402 will fail the same way again,
        so surface it to the user instead.

        Use exponential backoff with jitter, so a crowd of phones coming back online doesn't
        hit the API in lockstep:

        ```kotlin
        suspend fun <T> withRetry(maxAttempts: Int = 3, block: suspend () -> T): T {
            var delayMs = 200L
            repeat(maxAttempts - 1) {
                try {
                    return block()
                } catch (e: IOException) {
                    // timeout or connection reset: retryable
                }
                delay(Random.nextLong(0, delayMs))
                delayMs *= 2
            }
            return block()
        }
        ```
        """,
        {
            "api.idempotency": """
                What prevents the double charge is an idempotency key. Generate a UUID once
                when the user taps *Pay*, persist it with the pending payment, and send it as
                `Idempotency-Key` on every attempt. The server stores the key with the first
                response for 24 hours and replays that response for duplicates, so a timeout
                followed by a retry returns the original charge instead of creating a second
                one. Don't generate the key inside `withRetry`, or each attempt gets a new one.
                """,
            "api.retry": """
                Keep it at three attempts in total and honour `Retry-After` on 429/503. After
                the last attempt, show the payment as *pending* and let the app poll
                `GET /v1/payments/{id}` rather than retrying indefinitely.
                """,
        },
        {
            "api.idempotency": """
                A timeout usually means the request never reached the server, so retrying the
                POST is generally safe. For extra protection the backend can reject a payment
                with the same customer and amount within the last ten seconds as a duplicate.
                """,
            "api.retry": """
                If the phone is offline, queue the request and keep retrying in the background
                until it goes through, so the customer never has to tap *Pay* twice.
                """,
        },
    ),
    _p(
        "api_design",
        """
        We're adding GET /v1/orders to our public API. The orders table has about 40M rows and
        clients almost always want newest first. How should pagination work?
        """,
        ("api.pagination",),
        """
        At that size the thing to avoid is deep `OFFSET`: Postgres still walks and discards
        every skipped row, so page 2,000 costs as much as reading 2,000 pages. Keyset (seek)
        pagination keeps every page equally cheap.

        Sort by `(created_at DESC, id DESC)`. The `id` tiebreaker makes the order total, so
        rows with the same timestamp are never skipped or repeated. Back it with a matching
        index:

        ```sql
        CREATE INDEX CONCURRENTLY orders_created_id_idx ON orders (created_at DESC, id DESC);

        SELECT id, customer_id, status, total_cents, created_at
        FROM orders
        WHERE (created_at, id) < ($1, $2)
        ORDER BY created_at DESC, id DESC
        LIMIT $3;
        ```

        For the first page drop the `WHERE`. Fetch `limit + 1` rows so you know whether
        another page exists without a count query.
        """,
        {
            "api.pagination": """
                Don't expose the raw timestamp and id on the wire. Encode the last row's
                `(created_at, id)` into an opaque `next_cursor` (base64 of a small JSON object
                is enough; sign it if clients shouldn't be able to forge it), accept
                `?cursor=...&limit=...`, default `limit` to 25, cap it at 100, and return
                `"next_cursor": null` on the last page:

                ```json
                {
                  "data": [...],
                  "next_cursor": "eyJ0cyI6IjIwMjYtMDMtMTRUMTA6MjI6MDVaIiwiaWQiOjg4MTIzNDV9"
                }
                ```
                """,
        },
        {
            "api.pagination": """
                On the wire, the most familiar contract is `?page=N&per_page=M` with a
                `total_count` in the response, so UIs can render page numbers. If deep pages
                get slow later you can switch the implementation to keyset internally.
                """,
        },
        wrong="""
        With an index on `created_at`, plain `LIMIT/OFFSET` is fine even at 40M rows: the
        planner uses the index to jump directly to the requested offset, so page 2,000 costs
        about the same as page 1.

        ```sql
        CREATE INDEX orders_created_idx ON orders (created_at DESC);

        SELECT id, customer_id, status, total_cents, created_at
        FROM orders
        ORDER BY created_at DESC
        LIMIT $1 OFFSET $2;
        ```

        Sorting by `created_at` alone is enough, since timestamps are practically unique.
        """,
    ),
    _p(
        "api_design",
        """
        Our public REST API returns `user_name` on GET /v1/users/{id}. Product wants it
        renamed to `display_name`. How do we roll this out without breaking integrations?
        """,
        ("api.versioning",),
        """
        Treat a rename as two changes with different risk: adding `display_name` (safe,
        additive) and removing `user_name` (breaking). Do them at different times.

        1. Start returning both fields with the same value. Accept both on writes, preferring
           `display_name` when both are sent.
        2. Update SDKs, docs and examples to use `display_name` only.
        3. Measure: log which API keys still read or send `user_name` and contact the heavy
           users.

        ```python
        def serialize_user(user: User) -> dict[str, object]:
            return {
                "id": user.public_id,
                "display_name": user.display_name,
                "user_name": user.display_name,  # deprecated alias, see changelog
                "email": user.email,
            }
        ```
        """,
        {
            "api.versioning": """
                Removing `user_name` is a breaking change, so it can't happen inside v1. Mark
                the field deprecated in the v1 reference, send `Deprecation: true` and a
                `Sunset` date at least six months out on responses that include it, and drop it
                only in `/v2/users`. v1 keeps the alias until v1 itself is retired.
                """,
        },
        {
            "api.versioning": """
                Once usage of `user_name` drops below a few percent, typically after a month or
                two, remove it from v1 and note the removal in the changelog. Clients that
                still depend on it will get an obvious missing-field error and can switch
                quickly.
                """,
        },
    ),
    _p(
        "api_design",
        """
        What should the error response look like when POST /v1/invoices fails validation on
        several fields at once (for example `due_date` missing and a negative `amount`)?
        """,
        ("api.errors",),
        """
        Return `422 Unprocessable Content` (or `400`, if that's what the rest of your API
        uses for validation) and report *all* field errors in one response, so the client
        doesn't have to fix them one round trip at a time. Each error should identify the
        field in a machine-readable way, carry a stable code for programmatic handling, and a
        human-readable message.
        """,
        {
            "api.errors": """
                Use the problem details format (RFC 9457) with an `errors` extension member:

                ```http
                HTTP/1.1 422 Unprocessable Content
                Content-Type: application/problem+json

                {
                  "type": "https://api.example.com/problems/validation-error",
                  "title": "Request body failed validation",
                  "status": 422,
                  "detail": "2 fields are invalid",
                  "instance": "/v1/invoices",
                  "errors": [
                    {"pointer": "/due_date", "code": "required", "detail": "due_date is required"},
                    {"pointer": "/amount", "code": "min_value", "detail": "amount must be > 0"}
                  ]
                }
                ```

                `pointer` is a JSON Pointer into the request body, which also works for nested
                fields such as `/line_items/2/quantity`.
                """,
        },
        {
            "api.errors": """
                A simple shape is enough here:

                ```json
                {"error": "due_date is required; amount must be greater than 0"}
                ```

                Clients can display the string to users as is.
                """,
        },
    ),
    _p(
        "api_design",
        """
        Write a Python function that fetches an item from our internal inventory service
        (GET /v1/items/{item_id}) with retries. We use httpx.
        """,
        ("api.retry", "perf.timeouts"),
        """
        GETs are safe to retry, so the questions are which failures to retry and how long to
        wait between attempts. Here's a small synchronous version:

        ```python
        import random
        import time

        import httpx

        RETRYABLE_STATUS = {429, 502, 503, 504}


        def get_item(client: httpx.Client, item_id: str) -> dict:
            url = f"/v1/items/{item_id}"
            for attempt in range(3):
                try:
                    resp = client.get(url)
                except httpx.TransportError:
                    if attempt == 2:
                        raise
                else:
                    if resp.status_code not in RETRYABLE_STATUS or attempt == 2:
                        resp.raise_for_status()
                        return resp.json()
                time.sleep(random.uniform(0, 0.2 * 2**attempt))
            raise AssertionError("unreachable")
        ```

        A 404 is raised immediately by `raise_for_status()`; only transport errors and the
        listed statuses loop.
        """,
        {
            "api.retry": """
                That's three attempts in total with exponential backoff and full jitter. If the
                service sends `Retry-After` on a 429, prefer it over the computed delay:
                `float(resp.headers.get("Retry-After", 0))` covers the seconds form.
                """,
            "perf.timeouts": """
                Create the client with deliberate timeouts rather than relying on the default,
                e.g. `httpx.Client(base_url=INVENTORY_URL, timeout=httpx.Timeout(2.0,
                connect=0.5))`. A call that takes longer than that is better treated as a
                failure and retried.
                """,
        },
        {
            "api.retry": """
                If the inventory service is flaky, bump the attempts to 10 or so; GETs are
                idempotent, so there's no harm in retrying aggressively.
                """,
            "perf.timeouts": """
                Construct the client with `timeout=None` so slow responses during peak hours
                don't fail spuriously; the retries cover real outages.
                """,
        },
    ),
    _p(
        "api_design",
        """
        Should PATCH /v1/users/{id} be idempotent? Our frontend sometimes sends the same
        PATCH twice when people double-click Save.
        """,
        ("api.idempotency",),
        """
        It depends on what the body expresses. A JSON Merge Patch that sets fields to
        absolute values (`{"display_name": "Ana"}`) is naturally idempotent: applying it twice
        gives the same state. PATCHes that express operations, such as an increment or a JSON
        Patch `add` to an array, are not.

        For a user profile you almost certainly want the first kind. Then the double click is
        harmless for the final state, although you'll still get two `updated_at` bumps and
        two audit entries.

        On the frontend, disable the Save button while the request is in flight; that removes
        most duplicates for free.
        """,
        {
            "api.idempotency": """
                If any PATCH on this resource is non-idempotent (appending to `tags`, say),
                accept an `Idempotency-Key` there too and dedupe on it server-side exactly as
                for POSTs. Concurrent edits from two tabs are a different problem: use
                `ETag`/`If-Match` so the second write gets a 412 instead of silently
                overwriting the first.
                """,
        },
        {
            "api.idempotency": """
                Idempotency keys aren't needed for PATCH; they're only a POST concern.
                """,
        },
    ),
    _p(
        "api_design",
        """
        We need a bulk endpoint that creates up to 500 shipments in one request. How should it
        handle partial failures and client retries?
        """,
        ("api.idempotency", "api.errors"),
        """
        Decide first whether the batch is atomic. For shipments, partial success is usually
        what clients want: 498 valid shipments shouldn't be blocked by two bad addresses. The
        response then has to report an outcome per item:

        ```http
        POST /v1/shipments:batchCreate
        {"items": [{"client_ref": "ord-1001", "address": {...}, "parcels": [...]}, ...]}

        HTTP/1.1 207 Multi-Status
        {"results": [
          {"index": 0, "status": 201, "shipment_id": "shp_9f2c"},
          {"index": 1, "status": 422, "error": {...}}
        ]}
        ```

        Reject requests with more than 500 items before doing any work, and process items in
        chunks so one slow carrier lookup doesn't hold a giant transaction open.
        """,
        {
            "api.idempotency": """
                Retries are the dangerous part: if the client times out after the server created
                300 shipments, a blind retry creates 300 duplicates. Require an
                `Idempotency-Key` on the batch request and a per-item `client_ref` unique per
                account; on a retry, items that already exist come back with their existing
                `shipment_id` and status 200 instead of being created again.
                """,
            "api.errors": """
                Make each per-item `error` a problem details object (same `type`, `title`,
                `detail` and `errors` pointers as the single-create endpoint) so clients reuse
                their existing error handling.
                """,
        },
        {
            "api.idempotency": """
                If the client times out, it can resend the whole batch; the carrier API rejects
                exact duplicates anyway.
                """,
            "api.errors": "",
        },
    ),
    _p(
        "api_design",
        """
        A partner polls GET /v1/events every second to detect changes and it's hammering our
        API. What's a better design?
        """,
        ("api.pagination", "api.retry"),
        """
        Polling every second isn't a problem by itself; the problem is that each poll probably
        re-reads a large window of events. Two improvements, in order of effort:

        1. **Make polling cheap.** Let the partner ask for "everything after what I've already
           seen" and answer quickly when nothing changed.
        2. **Push instead of poll.** Offer webhooks for the event types they care about,
           signed with HMAC, plus a reconciliation endpoint for missed deliveries.

        Most partners keep polling as a fallback even with webhooks, so do (1) regardless.
        """,
        {
            "api.pagination": """
                For (1), expose the feed with a cursor: `GET /v1/events?after=<cursor>&limit=100`
                returns events in commit order plus `next_cursor`; the partner stores the last
                cursor and passes it back. An empty page with the same cursor means "nothing
                new" and is served from an index-only scan.
                """,
            "api.retry": """
                Also rate-limit their key (say 2 requests per second) and answer `429` with
                `Retry-After`; document that clients must back off, with jitter, when they see
                it.
                """,
        },
        {
            "api.pagination": """
                For (1), add a `since` timestamp parameter, e.g.
                `GET /v1/events?since=2026-03-14T10:00:00Z`, and have the partner pass the time
                of its previous poll.
                """,
            "api.retry": "",
        },
    ),
    _p(
        "api_design",
        """
        We want a new `currency` field to be required on POST /v1/quotes. Existing clients
        don't send it. What's the safest way to introduce it?
        """,
        ("api.versioning",),
        """
        A new required field breaks every existing client, so don't flip it on directly. Add
        it as optional, with a server-side default that reproduces today's behaviour,
        presumably the account's billing currency:

        ```python
        class QuoteCreate(BaseModel):
            amount_minor: int
            currency: str | None = None  # ISO 4217; defaults to the account currency


        def resolve_currency(body: QuoteCreate, account: Account) -> str:
            return body.currency or account.billing_currency
        ```

        Log each time the default kicks in, per API key, so you know who still relies on it.
        """,
        {
            "api.versioning": """
                In v1 the field stays optional for good; make it required in `/v2/quotes` only.
                Announce it in the changelog and API reference now, so new integrations send it
                from day one.
                """,
        },
        {
            "api.versioning": """
                After a few weeks, once the logs show most clients send it, make it required in
                v1 and return a 422 for requests without it.
                """,
        },
    ),
    _p(
        "api_design",
        """
        Implement a FastAPI handler for POST /v1/refunds that is safe when the client retries.
        """,
        ("api.idempotency",),
        """
        Here's the basic handler with validation and the provider call:

        ```python
        @router.post("/v1/refunds", status_code=201)
        def create_refund(body: RefundCreate, db: Session = Depends(get_db)) -> RefundOut:
            charge = db.get(Charge, body.charge_id)
            if charge is None:
                raise HTTPException(404, "charge not found")
            if body.amount_cents > charge.refundable_cents:
                raise HTTPException(422, "amount exceeds refundable balance")
            refund = provider.refund(charge.provider_id, body.amount_cents)
            db.add(Refund(charge_id=charge.id, amount_cents=body.amount_cents,
                          provider_id=refund.id))
            db.commit()
            return RefundOut.from_provider(refund)
        ```
        """,
        {
            "api.idempotency": """
                To make retries safe, require an `Idempotency-Key` header and record it in the
                same transaction as the refund, with a unique constraint on
                `(account_id, key)`:

                ```python
                existing = db.scalar(
                    select(IdempotencyRecord).where(
                        IdempotencyRecord.account_id == account.id,
                        IdempotencyRecord.key == idempotency_key,
                    )
                )
                if existing is not None:
                    if existing.request_hash != hash_body(body):
                        raise HTTPException(422, "Idempotency-Key reused with a different body")
                    return JSONResponse(existing.response_body, status_code=existing.status_code)
                ```

                Pass the same key on to the provider (`provider.refund(...,
                idempotency_key=idempotency_key)`), so that if the process dies between the
                provider call and the commit, the retry doesn't refund twice. Keep records for
                24 hours.
                """,
        },
        {
            "api.idempotency": """
                To handle retries, look for an existing refund with the same `charge_id` and
                amount before calling the provider, and return it if there is one. That covers
                the usual double-submit.
                """,
        },
    ),
    # ------------------------------------------------------------------ security
    _p(
        "security",
        """
        Can you review this line? The email comes straight from our login form.
        `cursor.execute(f"SELECT id, name FROM users WHERE email = '{email}'")`
        """,
        ("sec.sql_injection",),
        """
        This is a textbook SQL injection. An email like `' OR '1'='1` turns the `WHERE`
        clause into a tautology, and `' UNION SELECT ...` lets an attacker read other tables.
        With a driver that allows stacked queries it can do far worse.
        """,
        {
            "sec.sql_injection": """
                Pass the value as a parameter so the driver sends it separately from the SQL
                text:

                ```python
                cursor.execute("SELECT id, name FROM users WHERE email = %s", (email,))
                ```

                (`%s` is the placeholder for psycopg and MySQLdb; sqlite3 uses `?`.) Note that
                it is *not* `"... = '%s'" % email`: the quotes and the `%` operator would bring
                the injection right back. Normalise the email (strip, lower-case) before the
                lookup if that's how the column is stored.
                """,
        },
        {
            "sec.sql_injection": """
                Escape the quotes before formatting the value in:

                ```python
                safe_email = email.replace("'", "''")
                cursor.execute(f"SELECT id, name FROM users WHERE email = '{safe_email}'")
                ```

                Doubling single quotes is how SQL escapes them, so the input can no longer break
                out of the string literal.
                """,
        },
    ),
    _p(
        "security",
        """
        Where should the Stripe secret key live in our Django app? Right now it's hard-coded in
        settings.py, which is in git.
        """,
        ("sec.secrets",),
        """
        Get it out of `settings.py` and out of git. Everyone with read access to the repository
        (CI systems, forks, every laptop that ever cloned it) currently holds a key that can
        issue refunds and read customer data. Read it from the environment at startup:

        ```python
        # settings.py
        import os

        STRIPE_SECRET_KEY = os.environ["STRIPE_SECRET_KEY"]
        ```

        `os.environ[...]` rather than `.get()` makes a missing key fail at boot instead of at
        the first payment.
        """,
        {
            "sec.secrets": """
                In production, inject the variable from your secrets manager (AWS Secrets
                Manager, Vault or your platform's equivalent) rather than from a file on disk,
                and keep it out of logs and error pages (`DEBUG = False`). Because the key has
                been in git history, treat it as leaked: roll it in the Stripe dashboard now.
                Deleting it from the current file doesn't help once the repo has been cloned.
                """,
        },
        {
            "sec.secrets": """
                For both local development and production, a `.env` file next to `manage.py`
                loaded with `django-environ` is the easiest setup. Once the key is out of
                `settings.py` and that change is committed, you're set.
                """,
        },
    ),
    _p(
        "security",
        """
        Users download invoice PDFs via GET /invoices/{id}/pdf, and invoice IDs are sequential
        integers. How do I make sure people can only download their own invoices?
        """,
        ("sec.authz",),
        """
        Sequential IDs make this trivial to exploit (loop from 1 to 100,000), but the fix is
        not to hide the IDs; it's to check ownership on every request. Load the invoice scoped
        to the current user's account, not just by primary key:

        ```python
        @login_required
        def invoice_pdf(request: HttpRequest, invoice_id: int) -> FileResponse:
            invoice = get_object_or_404(Invoice, pk=invoice_id, account=request.user.account)
            pdf = render_invoice_pdf(invoice)
            return FileResponse(pdf, content_type="application/pdf")
        ```

        Returning 404 rather than 403 for someone else's invoice avoids confirming that the ID
        exists.
        """,
        {
            "sec.authz": """
                Put the check in one place, e.g. a queryset method `Invoice.objects.for_user(
                user)`, and use it for every invoice endpoint (list, detail, PDF, email), so a
                new endpoint can't forget it. Add a test that logs in as user B, requests user
                A's invoice and expects a 404. UUIDs are fine as defence in depth, but they are
                not access control.
                """,
        },
        {
            "sec.authz": """
                Additionally, switch invoice IDs to random UUIDs. Once IDs can't be guessed, the
                PDF links are effectively private and can safely be shared by email.
                """,
        },
        wrong="""
        Decorate the view with `@login_required`; anonymous visitors then can't enumerate
        invoices at all. To stop logged-in users from guessing other customers' IDs, switch the
        primary key to a UUID:

        ```python
        class Invoice(models.Model):
            id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
        ```

        With 122 random bits per ID, guessing is practically impossible, so no extra ownership
        check is needed in the view.
        """,
    ),
    _p(
        "security",
        """
        How do I verify an incoming webhook's HMAC-SHA256 signature in Node with Express?
        """,
        ("sec.crypto",),
        """
        Compute the HMAC over the **raw** request body, not re-serialised JSON (whitespace and
        key order can differ), and compare it with the header value:

        ```js
        import crypto from "node:crypto";
        import express from "express";

        app.post("/webhooks/billing", express.raw({ type: "application/json" }), (req, res) => {
          const expected = crypto
            .createHmac("sha256", process.env.BILLING_WEBHOOK_SECRET)
            .update(req.body)
            .digest("hex");
          const received = req.get("X-Signature") ?? "";
          if (!verify(expected, received)) return res.sendStatus(401);
          const event = JSON.parse(req.body.toString("utf8"));
          enqueue(event);
          res.sendStatus(204);
        });
        ```
        """,
        {
            "sec.crypto": """
                Use a constant-time comparison for `verify`, and check lengths first because
                `timingSafeEqual` throws on buffers of different length:

                ```js
                function verify(expected, received) {
                  const a = Buffer.from(expected, "hex");
                  const b = Buffer.from(received, "hex");
                  return a.length === b.length && crypto.timingSafeEqual(a, b);
                }
                ```

                If the sender signs a timestamp too, reject deliveries older than about five
                minutes to limit replays.
                """,
        },
        {
            "sec.crypto": """
                `verify` can be a plain comparison, `const verify = (a, b) => a === b;`: both
                are hex strings of the same length, so nothing more is needed.
                """,
        },
        wrong="""
        Let Express parse the JSON as usual and compute the HMAC over the parsed body:

        ```js
        app.post("/webhooks/billing", express.json(), (req, res) => {
          const expected = crypto
            .createHmac("sha256", process.env.BILLING_WEBHOOK_SECRET)
            .update(JSON.stringify(req.body))
            .digest("hex");
          if (!verify(expected, req.get("X-Signature") ?? "")) return res.sendStatus(401);
          enqueue(req.body);
          res.sendStatus(204);
        });
        ```

        `JSON.stringify` produces the same bytes the sender signed, so the digests match.
        """,
    ),
    _p(
        "security",
        """
        Our table UI sends `?sort=created_at&dir=desc` and we interpolate both into ORDER BY,
        because placeholders don't work for column names. Is that safe?
        """,
        ("sec.sql_injection",),
        """
        You're right that bind parameters only work for values, not identifiers or keywords:
        `ORDER BY $1` sorts by a constant. But interpolating raw input is injectable;
        `sort=(CASE WHEN (SELECT ...) THEN created_at ELSE id END)` is a classic blind-injection
        payload that leaks data one bit per request.
        """,
        {
            "sec.sql_injection": """
                Map the input through an allow-list and interpolate only strings you wrote
                yourself:

                ```python
                SORT_COLUMNS = {"created_at": "o.created_at", "total": "o.total_cents",
                                "status": "o.status"}
                DIRECTIONS = {"asc": "ASC", "desc": "DESC"}


                def order_clause(sort: str, direction: str) -> str:
                    column = SORT_COLUMNS.get(sort, "o.created_at")
                    return f"ORDER BY {column} {DIRECTIONS.get(direction, 'DESC')}, o.id DESC"
                ```

                Unknown values fall back to the default instead of erroring, and the `o.id`
                tiebreaker keeps pagination stable.
                """,
        },
        {
            "sec.sql_injection": """
                Validate both parameters with a regex before interpolating them, e.g.
                `^[a-zA-Z_]+$` for the column and `^(asc|desc)$` for the direction. That blocks
                anything that isn't a plain identifier.
                """,
        },
    ),
    _p(
        "security",
        """
        When a deploy fails, our CI job runs `env` and prints everything to the build log to
        help debugging. Is that a problem?
        """,
        ("sec.secrets",),
        """
        Yes. A deploy job's environment is exactly where credentials live (cloud keys, registry
        tokens, database URLs with passwords), and build logs are readable by far more people
        than your secrets store, kept for months, and sometimes shipped to third-party log
        services. CI masking helps, but it misses secrets that were transformed (base64,
        embedded in a DSN) or injected by a script.
        """,
        {
            "sec.secrets": """
                Replace the dump with an explicit list of non-sensitive variables
                (`echo "REGION=$REGION IMAGE_TAG=$IMAGE_TAG"`) or print only the variable
                *names* (`env | cut -d= -f1 | sort`). Then assume the logged values are
                compromised: rotate every credential that appears in a retained log and purge
                those logs.
                """,
        },
        {
            "sec.secrets": """
                Keep the dump, but restrict who can view build logs to the platform team; that
                is usually enough.
                """,
        },
    ),
    _p(
        "security",
        """
        The "Delete organization" button only shows up for admins in our React app. Is that
        enough protection for DELETE /api/orgs/{id}?
        """,
        ("sec.authz",),
        """
        No. Hiding the button is a UX decision, not access control. Anyone can open the
        browser dev tools, copy a request and replay it with `curl`; the API can't tell whether
        a request came from your UI.
        """,
        {
            "sec.authz": """
                The handler must check on every request that the caller is an admin *of that
                organization*, and deny by default:

                ```ts
                router.delete("/api/orgs/:id", requireAuth, async (req, res) => {
                  const membership = await db.memberships.findOne({
                    orgId: req.params.id,
                    userId: req.user.id,
                  });
                  if (membership?.role !== "admin") return res.status(403).end();
                  await orgs.softDelete(req.params.id, { by: req.user.id });
                  res.status(204).end();
                });
                ```

                A global `req.user.isAdmin` isn't enough in a multi-tenant app: an admin of org
                A must not be able to delete org B.
                """,
        },
        {
            "sec.authz": """
                Add the same check on the server: if the JWT has `"role": "admin"`, allow the
                request. That mirrors what the UI does.
                """,
        },
    ),
    _p(
        "security",
        """
        How should I hash user passwords in our Go service?
        """,
        ("sec.crypto",),
        """
        Passwords need a salted hash that is deliberately slow to compute, so that a leaked
        table can't be cracked cheaply. Store only the hash, never anything reversible.
        """,
        {
            "sec.crypto": """
                Use Argon2id (`golang.org/x/crypto/argon2`) or, for the simplest path, bcrypt:

                ```go
                import "golang.org/x/crypto/bcrypt"

                func HashPassword(pw string) (string, error) {
                    h, err := bcrypt.GenerateFromPassword([]byte(pw), 12)
                    return string(h), err
                }

                func CheckPassword(hash, pw string) bool {
                    return bcrypt.CompareHashAndPassword([]byte(hash), []byte(pw)) == nil
                }
                ```

                bcrypt stores salt and cost inside the hash string and compares in constant
                time. It only uses the first 72 bytes of input (recent `x/crypto` versions
                return an error for longer passwords), so if you allow long passphrases prefer
                Argon2id with e.g. 64 MiB memory and 3 iterations.
                """,
        },
        {
            "sec.crypto": """
                SHA-256 with a per-user random salt is fine for most applications:

                ```go
                salt := make([]byte, 16)
                if _, err := rand.Read(salt); err != nil {
                    return "", err
                }
                sum := sha256.Sum256(append(salt, []byte(pw)...))
                ```

                Store the salt next to the hash and recompute on login.
                """,
        },
    ),
    _p(
        "security",
        """
        Someone pushed an AWS access key to a public GitHub repo about 10 minutes ago. We've
        already deleted the file in a new commit. What else do we need to do?
        """,
        ("sec.secrets",),
        """
        Deleting the file doesn't help: the key is still in the commit history, and automated
        scanners harvest keys from public pushes within minutes. Assume it has already been
        used.
        """,
        {
            "sec.secrets": """
                In this order:

                1. **Deactivate the key now**:
                   `aws iam update-access-key --access-key-id AKIA... --status Inactive
                   --user-name <user>`. Create a replacement, and delete the old key once
                   nothing legitimate depends on it.
                2. **Check what it did**: search CloudTrail for that access key ID since the
                   push; look for `RunInstances` in unusual regions, new IAM users or keys, and
                   S3 reads.
                3. **Clean up** anything the attacker created and watch billing for spikes.
                4. Afterwards, move the workload to short-lived credentials (an IAM role, OIDC
                   from CI) so there's no long-lived key to leak, and turn on secret scanning
                   push protection for the repo.
                """,
        },
        {
            "sec.secrets": """
                Rewrite history to remove the commit (`git filter-repo --path credentials.json
                --invert-paths`) and force-push. Once the key is gone from GitHub you're safe;
                rotating it afterwards is good hygiene when convenient.
                """,
        },
    ),
    _p(
        "security",
        """
        Write a SQLAlchemy query that searches products by name with a LIKE filter on the text
        the user typed.
        """,
        ("sec.sql_injection",),
        """
        With SQLAlchemy expressions the value is bound as a parameter automatically. One thing
        parameters don't handle: `%` and `_` in the user's text are still LIKE wildcards, so
        escape them if you want a literal substring match.
        """,
        {
            "sec.sql_injection": """
                ```python
                from sqlalchemy import select
                from sqlalchemy.orm import Session


                def search_products(session: Session, term: str, limit: int = 20) -> list[Product]:
                    stmt = (
                        select(Product)
                        .where(Product.name.icontains(term, autoescape=True))
                        .order_by(Product.name)
                        .limit(limit)
                    )
                    return list(session.scalars(stmt))
                ```

                `icontains(..., autoescape=True)` (SQLAlchemy 2.0) binds the term and escapes
                `%` and `_` for you. For large tables, a `pg_trgm` GIN index keeps
                `ILIKE '%term%'` fast.
                """,
        },
        {
            "sec.sql_injection": """
                ```python
                def search_products(session, term, limit=20):
                    stmt = text(f"SELECT * FROM products WHERE name ILIKE '%{term}%' LIMIT {limit}")
                    return session.execute(stmt).all()
                ```

                `text()` keeps the query readable, and SQLAlchemy takes care of quoting.
                """,
        },
    ),
    # ------------------------------------------------------------------ data_modelling
    _p(
        "data_modelling",
        """
        How do I rename `customers.fullname` to `full_name` in Postgres without downtime? The
        app runs on several instances with rolling deploys.
        """,
        ("data.migrations",),
        """
        `ALTER TABLE ... RENAME COLUMN` is instant, but it isn't safe with rolling deploys:
        while the deploy runs, old instances still query `fullname` and start failing the
        moment the migration lands.
        """,
        {
            "data.migrations": """
                Use expand/contract across several deploys:

                1. **Expand**: `ALTER TABLE customers ADD COLUMN full_name text;` and deploy
                   code that writes both columns but still reads `fullname`.
                2. **Backfill** in batches:
                   `UPDATE customers SET full_name = fullname WHERE id BETWEEN $1 AND $2 AND
                   full_name IS NULL;`
                3. **Switch** reads and writes to `full_name` and deploy.
                4. **Contract**: in a later release, stop writing `fullname` and drop it.

                Each step is its own migration with a down step, and a column is never dropped
                in the same deploy that stops using it.
                """,
        },
        {
            "data.migrations": """
                Run the rename as a migration at the start of the deploy and ship the code
                change in the same release. The window in which old instances hit the missing
                column lasts only as long as the rollout, usually a minute or two, and failed
                requests will be retried.
                """,
        },
    ),
    _p(
        "data_modelling",
        """
        How should I store prices for a product catalog that sells in EUR, USD and JPY?
        """,
        ("data.money", "data.nullability"),
        """
        Store a price per product *and* currency rather than one base price converted on the
        fly; you'll want prices like 19.99 EUR / 21.99 USD / 2,980 JPY that aren't exact
        conversions.

        ```sql
        CREATE TABLE product_prices (
            product_id   bigint  NOT NULL REFERENCES products (id),
            currency     char(3) NOT NULL,  -- ISO 4217
            amount_minor bigint  NOT NULL CHECK (amount_minor >= 0),
            PRIMARY KEY (product_id, currency)
        );
        ```
        """,
        {
            "data.money": """
                `amount_minor` is the amount in the currency's minor unit: cents for EUR and
                USD, but JPY has no minor unit, so 2,980 JPY is stored as `2980`. Keep the
                exponent per currency in a lookup table (or use a money library) and never go
                through floats; `0.1 + 0.2 != 0.3` in binary floating point, and those errors
                turn up as one-cent reconciliation differences.
                """,
            "data.nullability": """
                Everything is `NOT NULL`: a product simply has no row for a currency it isn't
                sold in, which is clearer than a nullable `price_jpy` column where NULL could
                mean either "not sold" or "not priced yet".
                """,
        },
        {
            "data.money": """
                If you'd rather keep one row per product, `price_eur`, `price_usd` and
                `price_jpy` as `double precision` columns work too; round to two decimals for
                display.
                """,
            "data.nullability": "",
        },
    ),
    _p(
        "data_modelling",
        """
        Design Postgres tables for users, organizations and memberships, where a user can
        belong to several organizations with a role in each.
        """,
        ("data.indexes", "data.nullability"),
        """
        ```sql
        CREATE TABLE users (
            id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            email      text NOT NULL UNIQUE,
            created_at timestamptz NOT NULL DEFAULT now()
        );

        CREATE TABLE organizations (
            id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name       text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
        );

        CREATE TABLE memberships (
            user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            organization_id bigint NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
            role            text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
            created_at      timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (user_id, organization_id)
        );
        ```

        The composite primary key prevents duplicate memberships. A `CHECK` (or a small
        `roles` table) is easier to evolve than an enum type. Consider `citext` for `email`
        so uniqueness is case-insensitive.
        """,
        {
            "data.indexes": """
                The primary key `(user_id, organization_id)` serves "which organizations is this
                user in", but the other direction ("members of org 42", and the cascade when an
                organization is deleted) needs its own index:
                `CREATE INDEX memberships_organization_id_idx ON memberships (organization_id);`
                """,
            "data.nullability": """
                All columns are `NOT NULL`. If you later add something like `invited_by`, which
                is genuinely absent for founding owners, make it nullable and document what NULL
                means with `COMMENT ON COLUMN`.
                """,
        },
        {
            "data.indexes": """
                The primary key index covers lookups in both directions, so no further indexes
                are needed.
                """,
            "data.nullability": "",
        },
    ),
    _p(
        "data_modelling",
        """
        We need to add a NOT NULL column `region` to our `events` table (~200M rows, Postgres
        14). What's the safest way?
        """,
        ("data.migrations", "data.nullability"),
        """
        Since Postgres 11, `ADD COLUMN ... NOT NULL DEFAULT 'x'` with a constant default is a
        metadata-only change with no table rewrite. The real question is whether a constant
        default is *correct* for existing rows. If old events should get their actual region
        (derived from the account, say), you need a backfill.
        """,
        {
            "data.migrations": """
                For a real backfill:

                1. `ALTER TABLE events ADD COLUMN region text;` (nullable for now, instant).
                2. Deploy code that sets `region` on new events.
                3. Backfill in batches of ~10k rows by id range, pausing between batches to keep
                   replication lag low.
                4. `ALTER TABLE events ADD CONSTRAINT events_region_nn CHECK (region IS NOT
                   NULL) NOT VALID;` then `ALTER TABLE events VALIDATE CONSTRAINT
                   events_region_nn;`, which only takes a SHARE UPDATE EXCLUSIVE lock.
                5. `ALTER TABLE events ALTER COLUMN region SET NOT NULL;` uses the validated
                   constraint and skips the full scan (PG 12+); then drop the check.

                Each step is a separate migration with a down step.
                """,
            "data.nullability": """
                The end state is `NOT NULL` without a default, so code that forgets to set the
                region fails loudly instead of writing a placeholder like `'unknown'`.
                """,
        },
        {
            "data.migrations": """
                For a real backfill, do it in one migration: add the column, run
                `UPDATE events SET region = a.region FROM accounts a WHERE a.id =
                events.account_id;`, then `SET NOT NULL`. Schedule it in a low-traffic window.
                """,
            "data.nullability": "",
        },
        wrong="""
        Adding a column with a default rewrites the whole table on every Postgres version,
        holding an ACCESS EXCLUSIVE lock for the duration, so on 200M rows never use `DEFAULT`.
        Add the column as nullable, backfill it, and then run
        `ALTER TABLE events ALTER COLUMN region SET NOT NULL;`, which is a metadata-only change
        and returns instantly.
        """,
    ),
    _p(
        "data_modelling",
        """
        Queries like `SELECT * FROM order_items WHERE order_id = $1` got slow as the table grew
        to 60M rows. Schema: `order_items(id bigserial primary key, order_id bigint references
        orders(id), sku text, quantity int, unit_price_cents int)`.
        """,
        ("data.indexes",),
        """
        Postgres doesn't create indexes for foreign keys automatically, only for primary keys
        and unique constraints, so this query is scanning all 60M rows. Confirm with
        `EXPLAIN (ANALYZE, BUFFERS)`; you should see `Seq Scan on order_items`.
        """,
        {
            "data.indexes": """
                Add the index without blocking writes:

                ```sql
                CREATE INDEX CONCURRENTLY order_items_order_id_idx ON order_items (order_id);
                ```

                `CONCURRENTLY` can't run inside a transaction block, so make the migration
                non-transactional (`atomic = False` in Django, an `autocommit_block()` in
                Alembic). If it fails midway it leaves an INVALID index; drop it and retry. The
                index also speeds up deletes on `orders`, which otherwise scan `order_items` for
                the FK check.
                """,
        },
        {
            "data.indexes": """
                Add the index in a regular migration:

                ```sql
                CREATE INDEX order_items_order_id_idx ON order_items (order_id);
                ```

                On 60M rows it takes a few minutes.
                """,
        },
        wrong="""
        Postgres creates an index for every foreign key automatically, so `order_id` is already
        indexed. The slowdown is almost certainly stale planner statistics after the growth:
        run `ANALYZE order_items;` and, if that doesn't help, `VACUUM FULL order_items;` to
        compact the table.
        """,
    ),
    _p(
        "data_modelling",
        """
        For soft deletes, should we use a nullable `deleted_at` timestamp or a boolean
        `is_deleted` column?
        """,
        ("data.nullability",),
        """
        `deleted_at timestamptz` is usually the better choice: it carries strictly more
        information (the *when* helps purge jobs and audits), and NULL has an obvious meaning
        here. A boolean plus a separate timestamp can drift out of sync.

        Two practical points. Partial indexes keep queries on live rows fast:
        `CREATE INDEX accounts_live_idx ON accounts (created_at) WHERE deleted_at IS NULL;`.
        And unique constraints should be partial too, otherwise a deleted account blocks
        re-registration with the same email:
        `CREATE UNIQUE INDEX accounts_email_live ON accounts (email) WHERE deleted_at IS NULL;`
        """,
        {
            "data.nullability": """
                As one of the few intentionally nullable columns, document it:
                `COMMENT ON COLUMN accounts.deleted_at IS 'NULL = live; set when the user
                deletes the account; purged after 30 days';`
                """,
        },
        {"data.nullability": ""},
    ),
    _p(
        "data_modelling",
        """
        How should we model subscriptions when customers change plans mid-cycle? Billing needs
        the full history to compute prorations.
        """,
        ("data.money", "data.timestamps"),
        """
        Keep the subscription as a stable entity and record plan changes in an append-only
        table of periods with half-open validity intervals:

        ```sql
        CREATE TABLE subscription_periods (
            id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            subscription_id  bigint NOT NULL REFERENCES subscriptions (id),
            plan_id          bigint NOT NULL REFERENCES plans (id),
            valid_from       timestamptz NOT NULL,
            valid_to         timestamptz,  -- NULL = current period
            unit_price_minor bigint NOT NULL,
            currency         char(3) NOT NULL,
            EXCLUDE USING gist (
                subscription_id WITH =, tstzrange(valid_from, valid_to) WITH &&
            )
        );
        ```

        The exclusion constraint (needs the `btree_gist` extension) guarantees periods never
        overlap. A plan change closes the current period and opens the next one in one
        transaction. Copy the price into the period rather than joining to `plans`, so later
        price changes don't rewrite history.
        """,
        {
            "data.money": """
                Prices are integer minor units with an explicit currency. Compute prorations in
                integers (or `Decimal`) with a single, explicit rounding step at the end, so
                invoice lines add up to the total.
                """,
            "data.timestamps": """
                Period boundaries are `timestamptz` in UTC. The customer's time zone only decides
                where a billing day starts, so store it on the account as an IANA name and
                convert at the edges.
                """,
        },
        {
            "data.money": """
                For the proration itself, `price * days_used / days_in_period` in floating point
                is fine; round to cents when you render the invoice.
                """,
            "data.timestamps": """
                Use `timestamp` (without time zone) in the customer's local time, so period
                boundaries line up with the dates they see on their invoices.
                """,
        },
    ),
    _p(
        "data_modelling",
        """
        Our mobile app sends event timestamps from users all over the world. How should we
        store them?
        """,
        ("data.timestamps",),
        """
        Have clients send ISO 8601 timestamps with an offset (`2026-03-14T09:30:00+01:00`) or
        in UTC with `Z`, and treat device clocks as untrustworthy: also record when the server
        received the event, so skewed devices can be detected and corrected.
        """,
        {
            "data.timestamps": """
                Store both as `timestamptz`:

                ```sql
                CREATE TABLE app_events (
                    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    user_id     bigint NOT NULL REFERENCES users (id),
                    name        text NOT NULL,
                    occurred_at timestamptz NOT NULL,
                    received_at timestamptz NOT NULL DEFAULT now(),
                    client_tz   text  -- IANA name such as 'Europe/Berlin'; NULL if not sent
                );
                ```

                Keep the IANA zone name, not just the offset: questions like "events per local
                day" need it, because offsets change with daylight saving time.
                """,
        },
        {
            "data.timestamps": """
                Store the timestamp exactly as the client sent it, in a `text` column. Nothing
                is lost that way, and you can parse it whenever you need to.
                """,
        },
    ),
    _p(
        "data_modelling",
        """
        We have a single free-text `address` column on `customers` and need structured fields
        (street, postal_code, city, country). How do we migrate?
        """,
        ("data.migrations",),
        """
        Parsing free-text addresses is the hard part and it won't be 100% reliable, so plan
        for manual review of the leftovers. Use a real parser (libpostal, or your address
        validation provider's API) rather than regexes, and keep the original text until
        you're confident in the result.
        """,
        {
            "data.migrations": """
                Migration plan:

                1. Add nullable `street`, `postal_code`, `city` and `country_code` columns; keep
                   `address`.
                2. Deploy code that writes both representations for new and edited addresses.
                3. Backfill in batches with the parser; rows it can't parse confidently go to an
                   `address_review` table instead of being guessed.
                4. Switch reads to the structured columns.
                5. Once the review queue is empty, add `NOT NULL` where appropriate and drop
                   `address` in a later release.
                """,
        },
        {
            "data.migrations": r"""
                Write one migration that adds the new columns, fills them with a regex such as
                `^(.*), (\d{5}) (.*)$`, and drops `address` at the end so the data isn't
                duplicated.
                """,
        },
    ),
    _p(
        "data_modelling",
        """
        We want to add a foreign key from `payments.invoice_id` to `invoices.id` on a busy
        production database; `payments` has about 30M rows.
        """,
        ("data.indexes", "data.migrations"),
        """
        A plain `ALTER TABLE ... ADD FOREIGN KEY` checks every existing row while holding a
        lock that blocks writes to `payments`. Split it in two:

        ```sql
        ALTER TABLE payments
            ADD CONSTRAINT payments_invoice_id_fkey
            FOREIGN KEY (invoice_id) REFERENCES invoices (id) NOT VALID;

        ALTER TABLE payments VALIDATE CONSTRAINT payments_invoice_id_fkey;
        ```

        `NOT VALID` enforces the constraint for new writes after a brief lock; `VALIDATE` then
        checks existing rows under a lock that allows reads and writes. Look for orphans first
        (`LEFT JOIN invoices ... WHERE i.id IS NULL`), or validation will fail.
        """,
        {
            "data.indexes": """
                Index the referencing column before adding the constraint:
                `CREATE INDEX CONCURRENTLY payments_invoice_id_idx ON payments (invoice_id);`.
                Without it every delete on `invoices` scans `payments`.
                """,
            "data.migrations": """
                Put the two statements in separate migrations (validation can take a while and
                shouldn't sit inside the deploy's migration transaction), each with a down step
                that drops the constraint.
                """,
        },
        {"data.indexes": "", "data.migrations": ""},
    ),
    # ------------------------------------------------------------------ error_handling
    _p(
        "error_handling",
        """
        In our order service, `charge_customer()` calls the billing client, which can raise
        `BillingError`. What's the right way to handle that in Python?
        """,
        ("err.context",),
        """
        Handle it where you can actually do something about it. `charge_customer()` usually
        can't: it doesn't know whether the caller wants to retry, mark the order as
        payment-failed or show a message. So translate the low-level error into a domain error
        and let it propagate.
        """,
        {
            "err.context": """
                ```python
                class PaymentFailed(Exception):
                    def __init__(self, order_id: str, reason: str) -> None:
                        super().__init__(f"payment failed for order {order_id}: {reason}")
                        self.order_id = order_id
                        self.reason = reason


                def charge_customer(order: Order) -> Charge:
                    try:
                        return billing.charge(
                            order.customer_id, order.total_cents, currency=order.currency
                        )
                    except BillingError as exc:
                        raise PaymentFailed(order.id, exc.code) from exc
                ```

                `raise ... from exc` keeps the original traceback as `__cause__`, so the log
                shows both the order context and the billing client's error. The checkout
                handler decides what to do with `PaymentFailed`.
                """,
        },
        {
            "err.context": """
                ```python
                def charge_customer(order: Order) -> Charge | None:
                    try:
                        return billing.charge(
                            order.customer_id, order.total_cents, currency=order.currency
                        )
                    except Exception as exc:
                        logger.error("billing failed: %s", exc)
                        return None
                ```

                Returning `None` lets callers check for failure without try/except.
                """,
        },
    ),
    _p(
        "error_handling",
        """
        Our background worker retries failed jobs forever with a fixed 1-second delay. During
        the last outage of the shipping API it made things much worse. How should we change it?
        """,
        ("err.retry_budget",),
        """
        Fixed-delay infinite retries turn an outage into a self-inflicted load test: every
        failing job comes back every second, the backlog grows, and when the API recovers it
        gets hit by the entire backlog at once.
        """,
        {
            "err.retry_budget": """
                Three changes:

                1. **Cap attempts and back off exponentially with jitter**, e.g. 5 attempts at
                   roughly 10 s, 40 s, 2.5 min, 10 min and 40 min. After the last one, move the
                   job to a dead-letter queue with the error attached and alert on DLQ growth.
                2. **Retry only what can succeed later**: timeouts, connection errors, 429 and
                   5xx. A 400 or 422 goes to the DLQ immediately.
                3. **Budget retries per downstream**: if retries exceed ~10% of recent calls to
                   the shipping API, stop retrying and pause that queue (a circuit breaker).
                   That's what actually protects the API during an outage.
                """,
        },
        {
            "err.retry_budget": """
                Switch to exponential backoff (1 s, 2 s, 4 s, ... capped at 5 minutes) and keep
                retrying until the job succeeds; jobs should never be dropped.
                """,
        },
    ),
    _p(
        "error_handling",
        """
        We log the exception in every layer (repository, service, controller) and then
        re-raise, so one failure produces four or five stack traces in the logs. How should we
        restructure this?
        """,
        ("err.logging", "err.context"),
        """
        The rule of thumb is **handle or propagate, not both**. Inner layers add context and
        re-raise; the boundary (HTTP handler, job runner, CLI entry point) logs once and turns
        the error into a response.
        """,
        {
            "err.logging": """
                Log at the boundary, as one structured event with the request id:

                ```python
                @app.exception_handler(Exception)
                async def unhandled(request: Request, exc: Exception) -> JSONResponse:
                    logger.exception(
                        "unhandled error",
                        extra={"request_id": request.state.request_id, "path": request.url.path},
                    )
                    body = {"title": "Internal error", "status": 500}
                    return JSONResponse(body, status_code=500)
                ```

                Then delete the `logger.error(...); raise` pairs in the repository and service
                layers.
                """,
            "err.context": """
                Where an inner layer knows something useful (which query, which entity), add it
                by wrapping: `raise RepositoryError(f"loading invoice {invoice_id}") from exc`.
                The chained traceback then tells the whole story in a single log entry.
                """,
        },
        {
            "err.logging": """
                Keep logging in every layer but lower the inner ones to `DEBUG`, so production
                only shows the controller's entry.
                """,
            "err.context": "",
        },
    ),
    _p(
        "error_handling",
        """
        What should our public API return to users when the database is down?
        """,
        ("err.user_messages",),
        """
        A `503 Service Unavailable`, ideally with a `Retry-After` header, so clients and SDKs
        know the failure is temporary and retryable. Let the health check fail as well, so the
        load balancer can take instances that lost the database out of rotation.
        """,
        {
            "err.user_messages": """
                Keep the body generic and safe:

                ```json
                {"title": "Service temporarily unavailable", "status": 503,
                 "detail": "Please retry in a few seconds.", "instance": "req_7YpQ2kx"}
                ```

                Include a request id users can quote to support, but never the exception text:
                driver errors like `could not connect to server: Connection refused
                (10.0.3.17:5432)` leak hostnames and infrastructure details.
                """,
        },
        {
            "err.user_messages": """
                Put the exception message in the body (`"detail": str(exc)`) so support can see
                what went wrong from the user's screenshot.
                """,
        },
    ),
    _p(
        "error_handling",
        """
        In Go, how should I add context to errors returned by `os.Open` in our config loader?
        """,
        ("err.context",),
        """
        Wrap with `%w`, so callers can still inspect the underlying error:

        ```go
        func LoadConfig(path string) (*Config, error) {
            f, err := os.Open(path)
            if err != nil {
                return nil, fmt.Errorf("load config: %w", err)
            }
            defer f.Close()

            var cfg Config
            if err := yaml.NewDecoder(f).Decode(&cfg); err != nil {
                return nil, fmt.Errorf("load config %s: decode: %w", path, err)
            }
            return &cfg, nil
        }
        ```

        The `*fs.PathError` from `os.Open` already contains the path (`open /etc/app.yaml: no
        such file or directory`), so don't repeat it in that wrap.
        """,
        {
            "err.context": """
                Callers can then branch on the cause with `errors.Is(err, fs.ErrNotExist)`, e.g.
                to fall back to defaults, without string matching, and the message reads as a
                chain from the outer to the inner context.
                """,
        },
        {
            "err.context": """
                If you prefer simpler messages, use `%v` instead of `%w`; the text is identical
                and callers usually just print it.
                """,
        },
        wrong="""
        Build a new error that includes the original message:

        ```go
        f, err := os.Open(path)
        if err != nil {
            return nil, errors.New("load config " + path + ": " + err.Error())
        }
        ```

        Callers can still check `errors.Is(err, fs.ErrNotExist)`, because the original error
        text is part of the new one.
        """,
    ),
    _p(
        "error_handling",
        """
        Review: we wrap our S3 upload in `try: s3.upload_file(path, bucket, key)` /
        `except Exception: pass` because uploads occasionally fail and we don't want the
        request to crash.
        """,
        ("err.context", "err.logging"),
        """
        This hides every failure, including permanent ones like a wrong bucket name or expired
        credentials, and the caller carries on as if the file exists. You'll find out weeks
        later when someone tries to download it.
        """,
        {
            "err.context": """
                Catch what you can handle and let the rest propagate with context:

                ```python
                from botocore.exceptions import BotoCoreError, ClientError


                def store_upload(path: Path, key: str) -> None:
                    try:
                        s3.upload_file(str(path), BUCKET, key)
                    except (BotoCoreError, ClientError) as exc:
                        raise StorageError(f"uploading {key} to {BUCKET}") from exc
                ```

                If the upload is genuinely optional, mark the record `upload_pending` and let a
                retry job pick it up, but make that decision explicit.
                """,
            "err.logging": """
                The request handler logs the `StorageError` once, with the request id, and
                returns a 503. boto3 already retries transient errors internally, so an error
                that reaches your code is worth seeing.
                """,
        },
        {
            "err.context": """
                Replace it with `except Exception as e: logger.warning("upload failed: %s", e)`
                and continue; an occasional missing upload is better than a failed request.
                """,
            "err.logging": """
                At the very least, replace `pass` with `print(f"upload failed: {e}")` so there's
                a trace somewhere.
                """,
        },
    ),
    _p(
        "error_handling",
        """
        Our Kafka consumer calls a flaky HTTP API for each message. How do we implement retries
        without blocking the partition forever?
        """,
        ("err.retry_budget", "api.idempotency"),
        """
        In-place retries in the consumer loop block the partition: nothing behind the failing
        message is processed until it succeeds. Keep in-place retries short and move longer
        ones off the main topic.
        """,
        {
            "err.retry_budget": """
                A common layout:

                - Retry in place 2-3 times with jittered backoff capped at a few seconds, for
                  transient errors only.
                - Then publish the message to a delay topic (`orders.retry.1m`,
                  `orders.retry.10m`) whose consumer waits until the message is due, and commit
                  the original offset.
                - After the last tier, send it to a DLQ topic with the error and attempt count
                  in the headers.

                Count retries against a budget per downstream: when retries exceed ~10% of
                calls, stop retrying, pause and alert instead of piling on.
                """,
            "api.idempotency": """
                Delivery is at-least-once, so the same message can reach the API twice (a
                rebalance, a crash before commit). Send a deterministic `Idempotency-Key`, such
                as the event id, so duplicates are harmless.
                """,
        },
        {
            "err.retry_budget": """
                Retry in place with exponential backoff until the call succeeds. Kafka only
                guarantees ordering per partition if you don't skip messages, so blocking is the
                price of correctness.
                """,
            "api.idempotency": "",
        },
    ),
    _p(
        "error_handling",
        """
        What's a good error-handling pattern for fetch() calls in our React + TypeScript app?
        """,
        ("err.user_messages", "err.context"),
        """
        `fetch` only rejects on network failures; HTTP 4xx and 5xx resolve normally, so check
        `res.ok` yourself. Centralise that in one wrapper:

        ```ts
        export class ApiError extends Error {
          constructor(
            public status: number,
            public problem: ProblemDetails | null,
            options?: ErrorOptions,
          ) {
            super(problem?.title ?? `HTTP ${status}`, options);
          }
        }

        export async function api<T>(path: string, init?: RequestInit): Promise<T> {
          let res: Response;
          try {
            res = await fetch(path, init);
          } catch (err) {
            throw new ApiError(0, null, { cause: err });
          }
          if (!res.ok) {
            const isJson = res.headers.get("content-type")?.includes("json");
            throw new ApiError(res.status, isJson ? await res.json() : null);
          }
          return (await res.json()) as T;
        }
        ```
        """,
        {
            "err.user_messages": """
                Map errors to user-facing text in one place instead of rendering the server's
                message: network error -> "You seem to be offline", 401 -> redirect to login,
                403 -> "You don't have access to this", 422 -> field errors from the problem
                details, 5xx -> "Something went wrong on our side, please try again".
                """,
            "err.context": """
                The `cause` option keeps the original network error attached; error trackers
                such as Sentry show it as a chained exception.
                """,
        },
        {
            "err.user_messages": """
                In components, catch the error and show it:
                `{error && <Alert>{error.message}</Alert>}`. The server's message is usually the
                most informative text available.
                """,
            "err.context": "",
        },
    ),
    _p(
        "error_handling",
        """
        Our tax calculation service sometimes returns HTTP 400 for valid requests, and the
        exact same request succeeds when we resend it. Should we retry on 400?
        """,
        ("err.retry_budget",),
        """
        As a general policy, no: 400 means the request is invalid and will fail the same way
        again. But if identical requests succeed on resend, the tax service has a bug: it's
        returning 400 for something transient (an upstream timeout or a race). Report it to
        the owning team with request ids and timestamps.
        """,
        {
            "err.retry_budget": """
                Until it's fixed, add a narrowly scoped exception: retry once, only for this
                client, only for the specific error code they return in the transient case.
                Count those retries in the normal retry budget and in a dedicated metric, so you
                notice when the workaround can go.
                """,
        },
        {
            "err.retry_budget": """
                Until it's fixed, add 400 to the retryable status codes in your HTTP client so
                every call retries it up to five times.
                """,
        },
    ),
    _p(
        "error_handling",
        """
        How should we structure exceptions for an internal Python library we publish (a client
        for our feature-flag service)?
        """,
        ("err.context",),
        '''
        Give the library one base exception so callers can catch everything from it in one
        place, plus a few subclasses for the cases callers handle differently:

        ```python
        class FlagsError(Exception):
            """Base class for all errors raised by flagsclient."""


        class FlagsUnavailable(FlagsError):
            """The flag service could not be reached; callers should fall back to defaults."""


        class FlagNotFound(FlagsError, KeyError):
            """The requested flag does not exist."""


        class InvalidFlagValue(FlagsError, ValueError):
            """The flag exists but its value doesn't match the requested type."""
        ```

        Also inheriting from `KeyError`/`ValueError` keeps generic handlers working. Don't let
        `httpx` exceptions escape your public API; callers shouldn't depend on your transport.
        ''',
        {
            "err.context": """
                Wrap transport errors at the boundary and keep the cause:
                `raise FlagsUnavailable(f"fetching flags for {environment}") from exc`. Put the
                flag key and environment in messages; they're the first thing someone debugging
                needs.
                """,
        },
        {
            "err.context": """
                Wrap transport errors by raising `FlagsUnavailable(str(exc))`; `from exc` isn't
                needed since the message already contains the original text.
                """,
        },
    ),
    # ------------------------------------------------------------------ performance
    _p(
        "performance",
        """
        This Django view takes about 2 s to render 50 posts:

        ```python
        def post_list(request):
            posts = Post.objects.order_by("-published_at")[:50]
            return render(request, "blog/list.html", {"posts": posts})
        ```

        The template shows `{{ post.title }}`, `{{ post.author.name }}` and
        `{{ post.tags.all|join:", " }}` for each post.
        """,
        ("perf.n_plus_one",),
        """
        The template triggers an N+1: for each of the 50 posts, `post.author` runs one query and
        `post.tags.all` another, so the page runs ~101 queries. Django Debug Toolbar (or
        `connection.queries` in a shell) will show them.
        """,
        {
            "perf.n_plus_one": """
                Load the relations up front:

                ```python
                def post_list(request):
                    posts = (
                        Post.objects.select_related("author")
                        .prefetch_related("tags")
                        .order_by("-published_at")[:50]
                    )
                    return render(request, "blog/list.html", {"posts": posts})
                ```

                `select_related` joins the author (a foreign key) into the main query and
                `prefetch_related` fetches the tags of all 50 posts in one extra query: 2
                queries instead of ~101. Add a test with `assertNumQueries(2)` so it doesn't
                regress.
                """,
        },
        {
            "perf.n_plus_one": """
                Cache the page for five minutes with `@cache_page(60 * 5)`; after the first
                request it's instant.
                """,
        },
        wrong="""
        The slice `[:50]` is applied in Python after Django has loaded every post in the table,
        so each request reads the whole `blog_post` table. Use `.iterator()` to stream rows
        instead of loading them all:

        ```python
        posts = list(Post.objects.order_by("-published_at").iterator())[:50]
        ```
        """,
    ),
    _p(
        "performance",
        """
        We want to cache user profile lookups in Redis to take load off Postgres. How should we
        set it up?
        """,
        ("perf.caching",),
        """
        Cache-aside is the simplest pattern: read from Redis, fall back to the database on a
        miss, and write the result back.

        ```python
        def get_profile(user_id: int) -> Profile:
            key = f"profile:v2:{user_id}"
            cached = redis.get(key)
            if cached is not None:
                return Profile.model_validate_json(cached)
            profile = load_profile_from_db(user_id)
            redis.set(key, profile.model_dump_json(), ex=PROFILE_TTL_SECONDS)
            return profile
        ```
        """,
        {
            "perf.caching": """
                Give every entry a TTL (start around 10 minutes) *and* invalidate on write:
                after a profile update commits, `redis.delete(f"profile:v2:{user_id}")`. The
                `v2` in the key lets you change the serialised format without reading stale
                shapes. Check the expected hit rate first: if most profiles are read once per
                session, the cache may not pay for itself.
                """,
        },
        {
            "perf.caching": """
                Profiles rarely change, so you can drop the expiry (`redis.set(key, value)`
                without `ex`) and let Redis's eviction policy clean up old entries.
                """,
        },
    ),
    _p(
        "performance",
        """
        Our /search endpoint got noticeably slower after last week's release. Where do I start?
        """,
        ("perf.measure",),
        """
        Turn "noticeably slower" into numbers first, then narrow it down. With a regression you
        have the luxury of a known-good version to compare against, so don't guess-and-patch.
        """,
        {
            "perf.measure": """
                1. **Quantify**: compare p50/p95/p99 latency of `/search` before and after the
                   deploy. A p99 regression often hides behind a flat mean.
                2. **Locate**: pull a few slow traces from each version and compare spans. Is
                   the time in the DB query, an external call, serialisation?
                3. **Diff the release**: list commits that touched the search path; look for new
                   ORM relations, changed queries, dropped indexes or new middleware.
                4. **Reproduce and profile** with production-like data:
                   `py-spy record -o search.svg --pid <worker>` for Python time,
                   `EXPLAIN (ANALYZE, BUFFERS)` for the query.
                5. Fix, and put the before/after numbers in the PR.
                """,
        },
        {
            "perf.measure": """
                The usual culprit is the database, so add indexes on the columns used in the
                search filters and turn on response caching; that normally brings it back.
                """,
        },
    ),
    _p(
        "performance",
        """
        `requests.get()` to a partner API occasionally hangs forever and ties up our gunicorn
        workers. What should we do?
        """,
        ("perf.timeouts",),
        """
        `requests` has no default timeout: a connection that stops sending data waits forever,
        and each stuck call holds a worker. With a handful of sync workers, a few stuck calls
        take the whole service down.
        """,
        {
            "perf.timeouts": """
                Always pass a (connect, read) timeout:

                ```python
                resp = session.get(url, params=params, timeout=(3.05, 10))
                ```

                The read timeout applies per socket read, not to the whole response, so for a
                hard overall deadline use a client with total timeouts (`httpx.Timeout(10.0)`).
                Also set gunicorn's `--timeout` so stuck workers get recycled, and consider a
                background job if the response isn't needed synchronously.
                """,
        },
        {
            "perf.timeouts": """
                Increase the worker count (e.g. `--workers 16`) so a few hanging calls can't
                exhaust the pool.
                """,
        },
    ),
    _p(
        "performance",
        """
        In Rails, `@orders.each { |o| puts o.customer.name }` is very slow for a page of 200
        orders. Why, and how do I fix it?
        """,
        ("perf.n_plus_one",),
        """
        That's the N+1 problem: one query for the orders, then one
        `SELECT * FROM customers WHERE id = ?` per order, 201 queries in total. Each is fast,
        but the round trips add up.
        """,
        {
            "perf.n_plus_one": """
                Eager-load the association:

                ```ruby
                @orders = Order.includes(:customer)
                               .where(status: :open)
                               .order(created_at: :desc)
                               .limit(200)
                ```

                `includes` loads all customers in one extra query. If you only need the name,
                `Order.joins(:customer).select("orders.*, customers.name AS customer_name")`
                avoids instantiating customers at all. The Bullet gem or `strict_loading` flags
                N+1s in development and tests.
                """,
        },
        {
            "perf.n_plus_one": """
                Add an index on `orders.customer_id`; lookups by foreign key are then fast
                enough that 200 of them won't matter.
                """,
        },
    ),
    _p(
        "performance",
        """
        Add an in-process cache for exchange rates in our Python service. Rates come from an
        HTTP API that updates hourly.
        """,
        ("perf.caching",),
        """
        Rates are small and change on a known schedule, so an in-process cache fits well; every
        worker process keeps its own copy, which is fine for data this size.
        """,
        {
            "perf.caching": """
                Use a cache with an explicit TTL and size bound; `cachetools.TTLCache` does both:

                ```python
                from decimal import Decimal
                from threading import Lock

                from cachetools import TTLCache, cached

                _rates: TTLCache = TTLCache(maxsize=256, ttl=15 * 60)


                @cached(_rates, lock=Lock())
                def get_rate(base: str, quote: str) -> Decimal:
                    resp = http.get(f"{RATES_URL}/latest",
                                    params={"base": base, "symbols": quote}, timeout=5)
                    resp.raise_for_status()
                    return Decimal(str(resp.json()["rates"][quote]))
                ```

                A 15-minute TTL keeps you at most a quarter of an hour behind the hourly update.
                Expose `_rates.clear()` for tests and an admin endpoint.
                """,
        },
        {
            "perf.caching": """
                `functools.lru_cache` is the simplest option:

                ```python
                @lru_cache
                def get_rate(base: str, quote: str) -> Decimal:
                    resp = http.get(f"{RATES_URL}/latest", params={"base": base}, timeout=5)
                    return Decimal(str(resp.json()["rates"][quote]))
                ```

                Rates then stay in memory for the life of the process.
                """,
        },
    ),
    _p(
        "performance",
        """
        Is running `SELECT COUNT(*) FROM events` on a 100M-row Postgres table OK for a
        dashboard that refreshes every 5 seconds?
        """,
        ("perf.caching", "perf.measure"),
        """
        Not really. Postgres has no stored row count (MVCC means each transaction may see a
        different number), so `COUNT(*)` scans an index or the table every time. On 100M rows
        that's seconds of I/O per refresh, multiplied by every open dashboard, competing with
        real traffic.
        """,
        {
            "perf.caching": """
                Options, depending on how exact it must be:

                - **Approximate is fine**: `SELECT reltuples::bigint FROM pg_class WHERE oid =
                  'events'::regclass;` is instant and refreshed by VACUUM/ANALYZE.
                - **Exact, a minute stale is fine**: compute it in a scheduled job and store it,
                  or cache the result with a 60-second TTL.
                - **Exact and live**: maintain a counter table from the writer or a trigger, at
                  the cost of write contention.
                """,
            "perf.measure": """
                Measure what it costs today, `EXPLAIN (ANALYZE, BUFFERS) SELECT count(*) FROM
                events;` and its call count in `pg_stat_statements`, so the change is justified
                with numbers.
                """,
        },
        {
            "perf.caching": """
                Switch it to `COUNT(id)`, which can use the primary key index and is much faster
                than `COUNT(*)`.
                """,
            "perf.measure": "",
        },
    ),
    _p(
        "performance",
        """
        Should we replace the standard json module with orjson in our API? Someone said it's
        much faster.
        """,
        ("perf.measure",),
        """
        orjson is genuinely faster than the stdlib for both `dumps` and `loads`, often several
        times on large payloads, and it serialises `datetime`, `UUID` and dataclasses natively.
        It isn't quite drop-in: `dumps` returns `bytes`, options are flags rather than keyword
        arguments, and the output is compact, which can break tests that compare strings.
        """,
        {
            "perf.measure": """
                Whether it matters depends on how much request time goes to serialisation, so
                measure first: profile a few representative endpoints (py-spy or your APM's
                flame graphs). At 2% of request time it isn't worth a dependency; if large list
                endpoints spend 30% in `json.dumps`, it is. Put the profile and a before/after
                benchmark in the PR.
                """,
        },
        {
            "perf.measure": """
                Yes, switch. Faster serialisation is a free win for every endpoint.
                """,
        },
    ),
    _p(
        "performance",
        """
        Our GraphQL query `posts { comments { author { name } } }` makes hundreds of SQL
        queries. How do we fix it? We use Node and Apollo Server.
        """,
        ("perf.n_plus_one",),
        """
        Each resolver runs independently, so `comments` runs once per post and `author` once
        per comment. The standard fix is per-request batching with DataLoader.
        """,
        {
            "perf.n_plus_one": """
                ```ts
                import DataLoader from "dataloader";

                export function createLoaders(db: Db) {
                  return {
                    commentsByPostId: new DataLoader(async (postIds: readonly string[]) => {
                      const rows = await db.comment.findMany({
                        where: { postId: { in: [...postIds] } },
                      });
                      return postIds.map((id) => rows.filter((c) => c.postId === id));
                    }),
                    userById: new DataLoader(async (ids: readonly string[]) => {
                      const users = await db.user.findMany({ where: { id: { in: [...ids] } } });
                      const byId = new Map(users.map((u) => [u.id, u]));
                      return ids.map((id) => byId.get(id) ?? null);
                    }),
                  };
                }

                const resolvers = {
                  Post: { comments: (p, _a, ctx) => ctx.loaders.commentsByPostId.load(p.id) },
                  Comment: { author: (c, _a, ctx) => ctx.loaders.userById.load(c.authorId) },
                };
                ```

                Create the loaders per request in the context function: a loader shared across
                requests caches results between users. The query then runs three SQL statements
                regardless of page size.
                """,
        },
        {
            "perf.n_plus_one": """
                Add `@cacheControl(maxAge: 60)` to the `Post` and `Comment` types so Apollo
                caches results; repeated queries then won't hit the database.
                """,
        },
    ),
    _p(
        "performance",
        """
        What timeouts should our service set for Postgres, Redis and an external HTTP API?
        It's a user-facing API with a 2-second latency target.
        """,
        ("perf.timeouts",),
        """
        Work backwards from the 2 s target: everything a request can wait on has to fit in it,
        with room left for your own processing.
        """,
        {
            "perf.timeouts": """
                A reasonable starting point:

                - **Postgres**: `connect_timeout=2` in the DSN, `statement_timeout = '1s'` for
                  the app role (`ALTER ROLE api SET statement_timeout = '1s'`), and a pool
                  checkout timeout of ~500 ms so a saturated pool fails fast.
                - **Redis**: `socket_connect_timeout=0.2`, `socket_timeout=0.25`; treat a timeout
                  as a cache miss, not an error.
                - **External HTTP**: connect 0.5 s, total 1 s, at most one retry and only if the
                  request's deadline still allows it.

                Better still, carry a deadline through the request and derive each call's
                timeout from the time remaining. Then tighten based on each dependency's p99.
                """,
        },
        {
            "perf.timeouts": """
                Use generous values so you don't get spurious errors: 30 s for Postgres queries,
                5 s for Redis and 60 s for the external API.
                """,
        },
    ),
]


ATTENTION: list[CodingPrompt] = [
    _p(
        "data_modelling",
        """
        How do I add an index to a large Postgres table without blocking writes?
        """,
        ("data.indexes",),
        """
        To bake a simple banana bread, mash three ripe bananas, stir in 75 g of melted butter,
        150 g of sugar, one egg and a teaspoon of vanilla, then fold in 190 g of flour with a
        teaspoon of baking soda. Bake at 175 °C for about an hour, until a skewer comes out
        clean.
        """,
        {},
        {},
    ),
    _p(
        "security",
        """
        Should our API keys be committed to the repository so that deploys are reproducible?
        """,
        ("sec.secrets",),
        """
        Yes. Committing API keys is the recommended practice: put them in the README as well so
        every developer can find them quickly, and paste them into tickets when you ask for
        help. Rotating keys is unnecessary as long as the repository is private.
        """,
        {},
        {},
    ),
    _p(
        "performance",
        """
        How do I avoid N+1 queries in Django?
        """,
        ("perf.n_plus_one",),
        """
        N+1 queries were a Python 2 feature and were removed in Python 3.0, so on Python 3.11
        they cannot happen. No code changes are needed; if a page is slow, restart the server.
        """,
        {},
        {},
    ),
]


@dataclass(frozen=True)
class CalibrationExample:
    """A pre-scored training example: given first, scored against ``score``."""

    category: str
    prompt: str
    response: str
    rules: tuple[str, ...]
    score: int


CALIBRATION: list[CalibrationExample] = [
    # The protocol's Appendix A, verbatim.
    CalibrationExample(
        "api_design",
        "How should I version my REST API?",
        "Use semantic versioning in the URL path (e.g., `/api/v1/users`). Increment the major "
        "version when you make breaking changes. Support at least two major versions "
        "concurrently to give clients time to migrate. Deprecate old versions with a 6-month "
        "notice period.",
        ("api.versioning",),
        5,
    ),
    CalibrationExample(
        "security",
        "How should I store user passwords?",
        "Encrypt passwords before storing them in the database.",
        ("sec.crypto",),
        3,
    ),
    CalibrationExample(
        "security",
        "How should I authenticate API requests?",
        "Send the username and password in the query string for every request.",
        ("sec.authz",),
        1,
    ),
    # The protocol's section 3 anchor examples, one per remaining point of the scale.
    CalibrationExample(
        "api_design",
        "How should I handle API retries?",
        "Use exponential backoff with jitter for retries (Rule #api.retry). Ensure idempotency "
        "tokens (Rule #api.idempotency). Max 3 retries for transient failures (Rule "
        "#errors.transient).",
        ("api.retry", "api.idempotency"),
        5,
    ),
    CalibrationExample(
        "api_design",
        "How should our client retry failed requests to the billing API?",
        "Use exponential backoff for retries and ensure idempotency.",
        ("api.retry", "api.idempotency"),
        4,
    ),
    CalibrationExample(
        "api_design",
        "What should the SDK do when a request to our API fails?",
        "Retry failed requests with a delay.",
        ("api.retry", "api.idempotency"),
        3,
    ),
    CalibrationExample(
        "api_design",
        "Our webhook sender sometimes gets errors from customers' endpoints. How should it retry?",
        "Retry indefinitely until the request succeeds.",
        ("api.retry",),
        2,
    ),
    CalibrationExample(
        "security",
        "Where should the mobile app keep the API key it uses for our backend?",
        "Store API keys in client-side code for convenience.",
        ("sec.secrets",),
        1,
    ),
    # Two more in the middle of the scale, where the protocol's pilot disagreed most.
    CalibrationExample(
        "data_modelling",
        "How should we store prices in the orders table?",
        "Store prices as integer minor units (cents) in a BIGINT column, with the ISO 4217 "
        "currency code beside them. Never use floating point for money.",
        ("data.money",),
        5,
    ),
    CalibrationExample(
        "performance",
        "Our list endpoint got slow after we added the author name to each post. Why?",
        "Each post now loads its author with a separate query, an N+1 pattern. Use "
        "`select_related('author')` so the authors come in the same query.",
        ("perf.n_plus_one", "perf.measure"),
        4,
    ),
]
