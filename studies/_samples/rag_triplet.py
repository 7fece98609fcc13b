"""Material for ``rag_triplet``: the Nimbus Store documentation corpus and 40 queries.

``CHUNKS`` is the retrieval corpus of a fictional object storage service. Current docs live
under ``docs/``; a few chunks are outdated or wrong (``docs/legacy/``, an old blog post, a
community forum answer) and serve as misleading retrieval results. Each ``Query`` names the
chunks that answer it, the ones that are only partly relevant, and a misleading one, with a
good answer and a flawed answer (``flaw`` says how it is flawed: ``unsupported`` adds claims
no chunk makes, ``contradicted`` says the opposite of a chunk, ``fabricated_source`` cites a
document that was not retrieved, ``outdated`` repeats a misleading chunk).
"""

from __future__ import annotations

from dataclasses import dataclass

from ._text import prose

SYSTEM = "rag-v3"


@dataclass(frozen=True)
class Chunk:
    key: str
    source: str
    text: str


@dataclass(frozen=True)
class Query:
    query: str
    relevant: tuple[str, ...]
    partial: tuple[str, ...]
    misleading: tuple[str, ...]
    answer: str
    flawed: str
    flaw: str


def _c(key: str, source: str, text: str) -> Chunk:
    return Chunk(key, source, prose(text))


CHUNKS: list[Chunk] = [
    # quotas
    _c(
        "quota-buckets",
        "docs/quotas.md#buckets-per-project",
        """
        Each Nimbus Store project can create up to 100 buckets by default. The limit applies
        to the project as a whole, across all regions, not per region. You can request an
        increase to up to 1,000 buckets from the Quotas page of the console or with
        `nimbus quotas request --resource buckets --value <n>`. Requests are usually reviewed
        within two business days.
        """,
    ),
    _c(
        "quota-object-size",
        "docs/quotas.md#object-size",
        """
        A single object can be up to 5 TiB. Uploads with a single PUT request are limited to
        5 GiB; larger objects must be uploaded with multipart upload. User-defined metadata is
        limited to 8 KiB per object, counting both keys and values.
        """,
    ),
    _c(
        "quota-multipart",
        "docs/uploads/multipart.md#limits",
        """
        A multipart upload can have at most 10,000 parts. Every part except the last must be
        between 5 MiB and 5 GiB. Parts can be uploaded in parallel and in any order; the
        object is assembled when you call CompleteMultipartUpload with the ordered list of part
        numbers and ETags. Parts of an upload that is neither completed nor aborted are billed
        as Standard storage until you abort the upload.
        """,
    ),
    _c(
        "quota-request-rate",
        "docs/performance.md#request-rates",
        """
        Each bucket supports at least 3,500 write requests (PUT, COPY, POST, DELETE) and 5,500
        read requests (GET, HEAD) per second per key prefix. There is no limit on the number of
        prefixes in a bucket, so spreading keys across prefixes scales throughput. When a
        prefix exceeds its rate, Nimbus Store returns `503 SlowDown`; clients should retry with
        exponential backoff. Rates scale up gradually after a sustained increase in traffic.
        """,
    ),
    _c(
        "legacy-quotas",
        "docs/legacy/quotas-2022.md#limits",
        """
        As of March 2022, each project is limited to 50 buckets, and this limit cannot be
        raised. The maximum object size is 1 TiB, and multipart uploads support up to 5,000
        parts. Contact support if your workload needs larger objects.
        """,
    ),
    _c(
        "tags-limits",
        "docs/objects/tagging.md#limits",
        """
        Each object can have up to 10 tags. Tag keys can be up to 128 Unicode characters and
        values up to 256; keys are case-sensitive and must be unique per object. Tags can be
        used in lifecycle rule filters and IAM conditions. Changing tags is a Class A operation
        and does not create a new object version.
        """,
    ),
    # storage classes
    _c(
        "classes-overview",
        "docs/storage-classes.md#overview",
        """
        Nimbus Store offers four storage classes. Standard is for frequently accessed data and
        has no retrieval fee. Infrequent Access (IA) has a lower storage price, a per-GB
        retrieval fee and a 30-day minimum storage duration. Archive objects must be restored
        before they can be read and have a 90-day minimum; Deep Archive is the cheapest class,
        with a 180-day minimum and restores that take hours.
        """,
    ),
    _c(
        "classes-restore",
        "docs/storage-classes.md#restoring-archived-objects",
        """
        To read an Archive or Deep Archive object, start a restore with
        `nimbus store restore ns://<bucket>/<key> --days <n> --tier <tier>`, where `--days`
        (1-30) sets how long the temporary copy stays readable. Archive restores complete in
        1-5 minutes with the Expedited tier and 3-5 hours with Standard. Deep Archive restores
        take up to 12 hours (Standard) or up to 48 hours (Bulk); the Expedited tier is not
        available for Deep Archive.
        """,
    ),
    _c(
        "classes-minimums",
        "docs/storage-classes.md#minimum-duration-and-size",
        """
        Objects that are deleted, overwritten or transitioned before the minimum storage
        duration are charged for the remaining days: 30 days for IA, 90 for Archive and 180 for
        Deep Archive. Standard has no minimum duration. IA also has a minimum billable object
        size of 128 KiB; smaller objects are stored but billed as 128 KiB.
        """,
    ),
    # lifecycle
    _c(
        "lifecycle-overview",
        "docs/lifecycle.md#overview",
        """
        Lifecycle rules automate transitions between storage classes and the deletion of
        objects. A bucket can have up to 1,000 rules. Each rule has a filter (prefix, tags, or
        object size range) and one or more actions. Rules are evaluated once a day, so a new
        or changed rule can take up to 48 hours to affect existing objects.
        """,
    ),
    _c(
        "lifecycle-transitions",
        "docs/lifecycle.md#transitions",
        """
        A Transition action moves objects to a colder storage class a number of days after
        creation. Objects must stay in Standard for at least 30 days before they can be
        transitioned to IA. Transitions only go to colder classes: there is no lifecycle
        action that moves an object back to Standard; copy the object to change its class.
        Objects smaller than 128 KiB are not transitioned to IA.
        """,
    ),
    _c(
        "lifecycle-expiration",
        "docs/lifecycle.md#expiration",
        """
        An Expiration action deletes current object versions a number of days after creation.
        In a bucket with versioning enabled, expiration does not remove data: it adds a delete
        marker, and the previous version becomes noncurrent. To delete noncurrent versions
        permanently, add a NoncurrentVersionExpiration action with `noncurrent_days`.
        """,
    ),
    _c(
        "lifecycle-multipart",
        "docs/lifecycle.md#abort-incomplete-multipart-uploads",
        """
        The AbortIncompleteMultipartUpload action removes the parts of uploads that were not
        completed within a given number of days after they started. We recommend 7 days for
        most buckets. Parts of incomplete uploads do not appear in object listings, but they
        are billed as Standard storage until the upload is aborted.
        """,
    ),
    _c(
        "lifecycle-cli",
        "docs/cli/lifecycle.md#set",
        """
        `nimbus store lifecycle set` applies a lifecycle configuration to a bucket. For
        example, `nimbus store lifecycle set logs-prod --rule
        'id=logs,prefix=logs/,transition=ARCHIVE:90,expire=365'` moves objects under `logs/`
        to Archive after 90 days and deletes them after 365. Setting a configuration replaces
        all existing rules of the bucket; use `nimbus store lifecycle get <bucket>` to print the
        current rules as JSON before changing them.
        """,
    ),
    # versioning and object lock
    _c(
        "versioning-enable",
        "docs/versioning.md#enabling-versioning",
        """
        Versioning is enabled per bucket. Once enabled it can be suspended but never disabled.
        With versioning on, each overwrite creates a new version with its own version ID, and
        a delete without a version ID inserts a delete marker instead of removing data.
        Suspending versioning stops new versions from being created but keeps existing ones.
        """,
    ),
    _c(
        "versioning-restore",
        "docs/versioning.md#recovering-objects",
        """
        List an object's versions with `nimbus store ls --versions ns://<bucket>/<key>`. To
        undelete an object, delete its delete marker by version ID. To roll back an overwrite,
        copy the older version on top of the current one with
        `nimbus store cp --version-id <id> ns://<bucket>/<key> ns://<bucket>/<key>`. Objects
        deleted from a bucket without versioning cannot be recovered.
        """,
    ),
    _c(
        "object-lock",
        "docs/object-lock.md#retention-modes",
        """
        Object Lock prevents object versions from being deleted or overwritten for a retention
        period. It must be enabled when the bucket is created and requires versioning. In
        Governance mode, users with the `storage.objects.bypassRetention` permission can
        shorten or remove a retention period. In Compliance mode nobody, including the project
        owner, can delete a locked version before its retention period ends.
        """,
    ),
    _c(
        "legal-hold",
        "docs/object-lock.md#legal-holds",
        """
        A legal hold locks an object version indefinitely, independent of any retention
        period, until a user with `storage.objects.setLegalHold` removes it. Legal holds
        require Object Lock on the bucket.
        """,
    ),
    # IAM
    _c(
        "iam-roles",
        "docs/iam/roles.md#predefined-roles",
        """
        Nimbus Store has three predefined roles. `storage.viewer` can list buckets and read
        objects. `storage.editor` has viewer permissions and can create, overwrite and delete
        objects. `storage.admin` has editor permissions and can also manage bucket settings,
        lifecycle rules and IAM policies. Roles can be granted on a project or on a single
        bucket; bucket-level grants add to project-level grants and never remove permissions.
        """,
    ),
    _c(
        "iam-conditions",
        "docs/iam/conditions.md#resource-conditions",
        """
        IAM bindings can carry conditions on the resource name, the request time and the
        source IP range. For example, to let a principal write only under `uploads/` in the
        bucket `media`, grant `storage.editor` on the bucket with the condition
        `resource.name.startsWith('buckets/media/objects/uploads/')`. Conditions are evaluated
        on every request; a request that matches no binding fails with `403 AccessDenied`.
        """,
    ),
    _c(
        "iam-service-accounts",
        "docs/iam/service-accounts.md#authenticating-workloads",
        """
        Workloads should authenticate as service accounts, not with user credentials. Service
        account keys are long-lived JSON files; on Nimbus Compute and Nimbus Kubernetes, prefer
        workload identity federation, which issues short-lived tokens and needs no key file. A
        service account can have at most 10 keys.
        """,
    ),
    _c(
        "iam-public-access",
        "docs/iam/public-access.md#public-access-prevention",
        """
        Public access prevention is enabled by default on all buckets created since release
        2024.2. While it is enabled, bindings that grant access to `allUsers` or
        `allAuthenticatedUsers` are rejected. To serve public content, disable prevention on
        the bucket explicitly and grant `storage.viewer` to `allUsers` on that bucket; an
        organization policy may forbid this. Per-object public access is not supported; use a
        dedicated public bucket or signed URLs.
        """,
    ),
    _c(
        "legacy-acl",
        "docs/legacy/acl.md#object-acls",
        """
        Use object ACLs to control access to individual files. To make a single file public,
        run `nimbus store acl set public-read ns://<bucket>/<key>`. ACLs are the recommended
        way to grant per-object access and take effect immediately.
        """,
    ),
    _c(
        "signed-urls",
        "docs/iam/signed-urls.md#overview",
        """
        A signed URL grants time-limited access to one object without requiring a Nimbus
        account. A signed URL can be valid for at most 7 days (604,800 seconds). Create one
        with `nimbus store sign ns://<bucket>/<key> --duration 1h`. The URL carries the
        permissions of the signing service account at the time it is used, so revoking that
        account's access invalidates its outstanding URLs.
        """,
    ),
    _c(
        "signed-urls-upload",
        "docs/iam/signed-urls.md#uploads",
        """
        Signed URLs can also authorise uploads: sign a PUT request with `--method PUT` and,
        optionally, `--content-type`. The uploader must then send exactly the signed
        `Content-Type` header, or the request fails with `403 SignatureDoesNotMatch`. Browser
        uploads additionally need a CORS configuration on the bucket.
        """,
    ),
    # replication
    _c(
        "replication-overview",
        "docs/replication.md#overview",
        """
        Cross-region replication (CRR) asynchronously copies new objects from a source bucket
        to a destination bucket in another region. Both buckets must have versioning enabled.
        A replication rule applies only to objects written after the rule was created; to copy
        existing objects, run a Batch Replicate job.
        """,
    ),
    _c(
        "replication-scope",
        "docs/replication.md#what-is-replicated",
        """
        Replication copies object data, metadata, tags and Object Lock retention settings. By
        default, delete markers are not replicated; set `replicate_delete_markers: true` on the
        rule to change that. Deletions of a specific version are never replicated, to protect
        the destination from malicious deletes. Objects encrypted with customer-supplied keys
        are not replicated.
        """,
    ),
    _c(
        "replication-rtc",
        "docs/replication.md#replication-time-control",
        """
        Replication Time Control (RTC) adds an SLA: 99.9% of new objects are replicated within
        15 minutes, with replication metrics and alerts in the console. Without RTC most
        objects replicate within minutes, but there is no time guarantee. RTC costs $0.015 per
        GB replicated, in addition to inter-region transfer.
        """,
    ),
    _c(
        "forum-replication",
        "community/forum/replication-faq.md#existing-objects",
        """
        Q: Does replication copy the objects that are already in my bucket? A: Yes. Once you
        enable a replication rule, Nimbus copies every existing object in the background,
        usually within 24 hours, so there is nothing else to do.
        """,
    ),
    # encryption
    _c(
        "encryption-default",
        "docs/security/encryption.md#default-encryption",
        """
        All objects are encrypted at rest with AES-256 using Nimbus-managed keys. This is free
        and cannot be disabled. To use customer-managed keys (CMEK), set a default Nimbus KMS
        key on the bucket and grant the Nimbus Store service agent the
        `kms.keys.encrypterDecrypter` role on that key.
        """,
    ),
    _c(
        "encryption-rotation",
        "docs/security/encryption.md#key-rotation",
        """
        Rotating a KMS key creates a new key version that is used for new writes. Existing
        objects stay encrypted with the version that wrote them and remain readable as long as
        that version is enabled. Disabling or destroying a key version makes the objects
        encrypted with it unreadable. Run `nimbus store rewrite --reencrypt` to move existing
        objects to the newest key version.
        """,
    ),
    # pricing
    _c(
        "pricing-storage",
        "docs/pricing.md#storage",
        """
        Storage prices in us-east, per GB-month: Standard $0.020, Infrequent Access $0.0125,
        Archive $0.004, Deep Archive $0.00099. Storage is metered hourly and billed monthly.
        Prices in other regions can be up to 20% higher; see the regional price table.
        """,
    ),
    _c(
        "pricing-operations",
        "docs/pricing.md#operations-and-retrieval",
        """
        Class A operations (PUT, COPY, POST, LIST) cost $0.005 per 1,000 requests in Standard
        and $0.01 per 1,000 in IA and Archive. Class B operations (GET, HEAD) cost $0.0004 per
        1,000 requests. DELETE requests are free. Retrieval costs $0.01 per GB from IA and, from
        Archive, $0.03 per GB (Standard tier) or $0.10 per GB (Expedited).
        """,
    ),
    _c(
        "pricing-egress",
        "docs/pricing.md#data-transfer",
        """
        Data transfer into Nimbus Store is free. Transfer out to the internet costs $0.09 per
        GB for the first 10 TB each month and $0.085 per GB for the next 40 TB. Transfer between
        buckets in the same region is free; transfer between regions, including replication,
        costs $0.02 per GB.
        """,
    ),
    _c(
        "pricing-free-tier",
        "docs/pricing.md#free-tier",
        """
        The free tier includes, per billing account and month, 5 GB-months of Standard storage,
        2,000 Class A operations, 20,000 Class B operations and 100 GB of transfer out to the
        internet. Unused free tier allowance does not carry over to the next month.
        """,
    ),
    _c(
        "blog-prices-2021",
        "blog/2021-06-price-update.md#new-prices",
        """
        Starting June 1, 2021, Standard storage costs $0.023 per GB-month in all regions, and
        transfer out to the internet costs $0.12 per GB. Class B operations remain free for the
        first million requests each month.
        """,
    ),
    # CLI
    _c(
        "cli-install",
        "docs/cli/install.md#setup",
        """
        Install the CLI with `pip install nimbus-cli` or the standalone installer. Run
        `nimbus auth login` to authenticate and `nimbus config set project <project-id>` to set
        a default project. In CI, set `NIMBUS_CREDENTIALS` to the path of a credentials file
        instead of logging in interactively.
        """,
    ),
    _c(
        "cli-sync",
        "docs/cli/cp-and-sync.md#sync",
        """
        `nimbus store cp` copies files between local paths and buckets; add `-r` for
        directories. `nimbus store sync SRC DST` copies only files whose size or checksum
        differ, and `--delete` removes destination files that are not present in the source.
        Parallelism is set with `--jobs` (default 8).
        """,
    ),
    _c(
        "cli-dry-run",
        "docs/cli/cp-and-sync.md#dry-runs-and-excludes",
        """
        Run `sync --delete` with `--dry-run` first: it prints the planned copies and deletions
        without executing them. `--exclude` takes a glob pattern and can be repeated, e.g.
        `--exclude '*.tmp' --exclude '.git/**'`. Deleted files are removed immediately unless
        the bucket has versioning enabled.
        """,
    ),
    _c(
        "cli-ls",
        "docs/cli/ls-and-du.md#listing",
        """
        `nimbus store ls ns://<bucket>/<prefix>/` lists objects; `-l` adds size, storage class
        and update time, and `--recursive` lists every key under the prefix. `nimbus store du
        -s ns://<bucket>` prints the total size of a bucket; on buckets with millions of
        objects it can take several minutes, so use the Storage Insights dashboard instead,
        which is updated daily.
        """,
    ),
    # events, logs, website, cors, regions, troubleshooting
    _c(
        "events-notifications",
        "docs/events.md#bucket-notifications",
        """
        Bucket notifications publish events (`object.finalized`, `object.deleted`,
        `object.archived`, `object.metadataUpdated`) to a Nimbus Queue topic or an HTTPS
        webhook. Delivery is at least once: consumers must tolerate duplicate and out-of-order
        events. A bucket can have up to 10 notification configurations.
        """,
    ),
    _c(
        "events-webhook-signing",
        "docs/events.md#verifying-webhooks",
        """
        Webhook deliveries carry a `Nimbus-Signature` header containing an HMAC-SHA256 of the
        raw request body, computed with the endpoint's signing secret. Compare it with your own
        HMAC using a constant-time comparison. Deliveries that fail (non-2xx response or no
        response within 10 seconds) are retried with exponential backoff for up to 24 hours.
        """,
    ),
    _c(
        "access-logs",
        "docs/logging.md#server-access-logs",
        """
        Server access logs record requests made to a bucket and are delivered to a target
        bucket, usually within a few hours. Delivery is best effort: a small share of requests
        may be missing or arrive late. For audit-grade records, use Audit Logs, which always
        record administrative actions and record data access when it is enabled for the
        project.
        """,
    ),
    _c(
        "static-website",
        "docs/static-website.md#hosting",
        """
        A bucket can serve a static website. Set the index and error documents with
        `nimbus store website set <bucket> --index index.html --error 404.html`. Website
        endpoints serve HTTP only; for HTTPS and a custom domain, put Nimbus CDN in front of the
        bucket and attach a managed certificate.
        """,
    ),
    _c(
        "cors",
        "docs/cors.md#configuration",
        """
        Browsers block cross-origin requests to a bucket unless the bucket has a CORS
        configuration. Set it with `nimbus store cors set <bucket> --file cors.json`, where the
        file holds a list of rules with allowed origins, methods, response headers and
        `max_age_seconds`. A bucket can have up to 100 CORS rules. Browsers cache the preflight
        response for `max_age_seconds`.
        """,
    ),
    _c(
        "regions",
        "docs/regions.md#bucket-locations",
        """
        Buckets can be created in us-east, us-west, eu-central, eu-west, ap-southeast and
        ap-northeast, or in the dual-region locations eu-dual and us-dual. A bucket's location
        cannot be changed after creation. To move data to another region, create a bucket
        there and copy the objects, for example with a Batch Replicate job.
        """,
    ),
    _c(
        "troubleshooting-403",
        "docs/troubleshooting.md#403-access-denied",
        """
        When a request fails with `403 AccessDenied`, first check which identity made it with
        `nimbus auth whoami`; CI jobs often run as a different service account than expected.
        Then list the bucket's bindings with `nimbus store buckets get-iam <bucket>` and check
        any conditions on them. Requests that would make data public also fail with 403 while
        public access prevention is enabled.
        """,
    ),
    _c(
        "troubleshooting-latency",
        "docs/troubleshooting.md#high-latency",
        """
        First-byte latency for Standard objects is typically under 100 ms within the same
        region. Higher latency usually comes from cross-region access, small-object workloads
        dominated by request overhead, or client-side connection limits. Enable HTTP keep-alive
        and reuse clients across requests.
        """,
    ),
]


def _q(
    query: str,
    relevant: tuple[str, ...],
    partial: tuple[str, ...],
    misleading: tuple[str, ...],
    answer: str,
    flawed: str,
    flaw: str,
) -> Query:
    return Query(query, relevant, partial, misleading, prose(answer), prose(flawed), flaw)


QUERIES: list[Query] = [
    _q(
        "How many buckets can I create in one project, and can that limit be raised?",
        ("quota-buckets",),
        ("regions",),
        ("legacy-quotas",),
        """
        A project can have up to 100 buckets by default, counted across all regions. You can
        request an increase to up to 1,000 buckets from the Quotas page in the console or with
        `nimbus quotas request --resource buckets --value <n>`; requests are usually reviewed
        within two business days.
        """,
        """
        Projects are limited to 50 buckets, and the limit can't be raised. If you need more,
        create a second project and split your buckets between them.
        """,
        "outdated",
    ),
    _q(
        "What's the largest object I can upload, and when do I have to use multipart upload?",
        ("quota-object-size", "quota-multipart"),
        (),
        ("legacy-quotas",),
        """
        A single object can be up to 5 TiB. A single PUT can upload at most 5 GiB, so anything
        larger must use multipart upload: up to 10,000 parts, each between 5 MiB and 5 GiB
        except the last one.
        """,
        """
        Objects can be up to 5 TiB, and a single PUT handles up to 5 GiB. Beyond that, use
        multipart upload (up to 10,000 parts of 5 MiB-5 GiB). Multipart is also faster for
        anything above 100 MB, and the CLI switches to it automatically at 64 MB.
        """,
        "unsupported",
    ),
    _q(
        "Why am I still being billed for storage after an upload failed halfway through?",
        ("lifecycle-multipart", "quota-multipart"),
        ("pricing-storage",),
        (),
        """
        The parts of an incomplete multipart upload stay stored, and are billed as Standard
        storage, until the upload is completed or aborted. They don't show up in object
        listings. Abort the upload, and add an AbortIncompleteMultipartUpload lifecycle rule
        (7 days is the recommended value) so stale uploads are cleaned up automatically.
        """,
        """
        Parts of an incomplete multipart upload are billed until the upload is aborted.
        Nimbus deletes incomplete uploads automatically after 30 days (see
        docs/billing/multipart-charges.md), so the charges will stop on their own.
        """,
        "fabricated_source",
    ),
    _q(
        "I added an expiration rule to a versioned bucket but storage usage didn't go down. Why?",
        ("lifecycle-expiration",),
        ("versioning-enable", "lifecycle-overview"),
        (),
        """
        In a versioned bucket, Expiration doesn't remove data: it adds a delete marker and the
        previous version becomes noncurrent, which is still stored and billed. Add a
        NoncurrentVersionExpiration action with `noncurrent_days` to delete noncurrent versions
        permanently. Also note that rules are evaluated once a day, so changes can take up to
        48 hours to apply.
        """,
        """
        Expiration permanently deletes all versions of the matching objects, so usage will drop
        once the rule has run. Rules are evaluated weekly, so it can take up to 7 days before
        you see the change.
        """,
        "contradicted",
    ),
    _q(
        "How do I move logs to Archive after 90 days and delete them after a year with the CLI?",
        ("lifecycle-cli",),
        ("lifecycle-transitions", "classes-minimums"),
        (),
        """
        Run `nimbus store lifecycle set <bucket> --rule
        'id=logs,prefix=logs/,transition=ARCHIVE:90,expire=365'`. Be careful: `set` replaces
        all existing lifecycle rules on the bucket, so first check the current ones with
        `nimbus store lifecycle get <bucket>` and include any you want to keep.
        """,
        """
        Run `nimbus store lifecycle set <bucket> --rule
        'id=logs,prefix=logs/,transition=ARCHIVE:90,expire=365'`. The new rule is merged with
        the bucket's existing rules, so nothing else changes.
        """,
        "contradicted",
    ),
    _q(
        "Can a lifecycle rule move objects from Archive back to Standard?",
        ("lifecycle-transitions",),
        ("classes-restore",),
        (),
        """
        No. Lifecycle transitions only move objects to colder classes. To read an archived
        object, restore it (which makes a temporary readable copy for 1-30 days); to change its
        class permanently, restore it and then copy the object to Standard.
        """,
        """
        Yes. Add a Transition action with the target class `STANDARD` and the number of days,
        and objects will be moved back automatically on the next evaluation.
        """,
        "contradicted",
    ),
    _q(
        "How long does it take to restore an object from Deep Archive?",
        ("classes-restore",),
        ("classes-overview",),
        (),
        """
        Up to 12 hours with the Standard tier and up to 48 hours with Bulk. The Expedited tier
        isn't available for Deep Archive. Use `nimbus store restore ... --days <n>` to choose
        how long the restored copy stays readable (1-30 days).
        """,
        """
        With the Expedited tier a Deep Archive restore completes in 1-5 minutes; Standard
        restores take up to 12 hours and Bulk up to 48 hours.
        """,
        "contradicted",
    ),
    _q(
        "What happens if I delete an Infrequent Access object after only 10 days?",
        ("classes-minimums",),
        ("classes-overview", "pricing-operations"),
        (),
        """
        IA has a 30-day minimum storage duration, so you're charged for the remaining 20 days
        as if the object had been stored for the full 30.
        """,
        """
        You're charged for the remaining 20 days of IA's 30-day minimum, plus an early deletion
        fee of $0.01 per GB.
        """,
        "unsupported",
    ),
    _q(
        "Which storage class should I use for backups I read maybe once a year but need back "
        "within an hour?",
        ("classes-restore", "classes-overview"),
        ("pricing-storage",),
        (),
        """
        Archive fits best: storage is cheap ($0.004/GB-month in us-east) and an Expedited
        restore completes in 1-5 minutes, well within an hour. Deep Archive is cheaper but
        can't meet the one-hour requirement because its fastest restore takes up to 12 hours.
        Keep in mind Archive's 90-day minimum storage duration and the Expedited retrieval fee.
        """,
        """
        Deep Archive is the best choice: it's the cheapest class, and restores from it complete
        within an hour.
        """,
        "contradicted",
    ),
    _q(
        "Does storage.editor let someone change lifecycle rules on a bucket?",
        ("iam-roles",),
        ("iam-conditions",),
        (),
        """
        No. `storage.editor` can read, create, overwrite and delete objects, but managing bucket
        settings, including lifecycle rules and IAM policies, requires `storage.admin`.
        """,
        """
        Yes. `storage.editor` can manage objects and bucket settings such as lifecycle rules;
        only changing IAM policies requires `storage.admin`.
        """,
        "contradicted",
    ),
    _q(
        "How can I let a contractor upload files only into the uploads/ folder of our media "
        "bucket?",
        ("iam-conditions",),
        ("iam-roles", "signed-urls-upload"),
        (),
        """
        Grant the contractor `storage.editor` on the `media` bucket with an IAM condition that
        limits it to that prefix: `resource.name.startsWith('buckets/media/objects/uploads/')`.
        Requests outside `uploads/` will fail with 403. If they don't have a Nimbus account,
        you can instead hand out signed PUT URLs for individual uploads.
        """,
        """
        Use the `--prefix-scope` flag when granting the role, e.g. `nimbus iam grant
        storage.editor --member user:... --prefix-scope uploads/` (see
        docs/iam/prefix-scopes.md). The grant then only applies under that folder.
        """,
        "fabricated_source",
    ),
    _q(
        "How do I make a single file in my bucket public?",
        ("iam-public-access",),
        ("signed-urls",),
        ("legacy-acl",),
        """
        Per-object public access isn't supported. Either put the file in a dedicated public
        bucket (disable public access prevention on that bucket and grant `storage.viewer` to
        `allUsers`; an organization policy may block this), or share it with a signed URL valid
        for up to 7 days.
        """,
        """
        Run `nimbus store acl set public-read ns://<bucket>/<key>`. ACLs are the recommended
        way to make individual files public and take effect immediately.
        """,
        "outdated",
    ),
    _q(
        "What's the longest expiry I can set on a signed URL?",
        ("signed-urls",),
        ("signed-urls-upload",),
        (),
        """
        7 days (604,800 seconds). Set it with `--duration` when you create the URL with
        `nimbus store sign ns://<bucket>/<key>`.
        """,
        """
        Signed URLs can be valid for up to 7 days, or up to 30 days when they're signed with a
        user account instead of a service account.
        """,
        "unsupported",
    ),
    _q(
        "If I revoke a service account's access, do the signed URLs it created stop working?",
        ("signed-urls",),
        ("iam-service-accounts",),
        (),
        """
        Yes. A signed URL carries the permissions of the signing service account at the time
        it's used, so once that account loses access its outstanding URLs stop working, even if
        they haven't expired.
        """,
        """
        No. A signed URL remains valid until it expires, regardless of later changes to the
        signing account, so keep durations short.
        """,
        "contradicted",
    ),
    _q(
        "Does cross-region replication copy objects that were already in the bucket?",
        ("replication-overview",),
        ("replication-scope",),
        ("forum-replication",),
        """
        No. A replication rule only applies to objects written after it was created. To copy
        existing objects, run a Batch Replicate job. Both buckets also need versioning enabled.
        """,
        """
        Yes. When you enable a replication rule, all existing objects are copied in the
        background, usually within 24 hours, so there's nothing else to do.
        """,
        "outdated",
    ),
    _q(
        "Are deletes replicated to the destination bucket?",
        ("replication-scope",),
        ("replication-overview",),
        (),
        """
        Not by default. Delete markers are only replicated if you set
        `replicate_delete_markers: true` on the rule, and deletions of specific versions are
        never replicated, to protect the destination from malicious deletes.
        """,
        """
        Delete markers aren't replicated unless you enable `replicate_delete_markers`, and
        version deletions are never replicated. Nimbus also keeps deleted replicas in a 30-day
        recovery window on the destination.
        """,
        "unsupported",
    ),
    _q(
        "What does Replication Time Control guarantee, and what does it cost?",
        ("replication-rtc",),
        ("pricing-egress", "replication-overview"),
        (),
        """
        RTC guarantees that 99.9% of new objects are replicated within 15 minutes and adds
        replication metrics and alerts. It costs $0.015 per GB replicated, on top of the
        inter-region transfer charge ($0.02 per GB).
        """,
        """
        RTC guarantees that 100% of objects are replicated within 15 minutes (see
        docs/replication/sla.md) for $0.015 per GB.
        """,
        "fabricated_source",
    ),
    _q(
        "Can I turn off encryption on a bucket to improve performance?",
        ("encryption-default",),
        ("encryption-rotation",),
        (),
        """
        No. All objects are encrypted at rest with AES-256 using Nimbus-managed keys; it's free
        and can't be disabled. You can switch to customer-managed keys, but not turn encryption
        off.
        """,
        """
        No, encryption can't be disabled. It adds roughly 5% latency to reads, so if that
        matters, use larger objects to amortise the overhead.
        """,
        "unsupported",
    ),
    _q(
        "We rotated our KMS key. Do we need to re-encrypt existing objects?",
        ("encryption-rotation",),
        ("encryption-default",),
        (),
        """
        Not for them to stay readable: existing objects remain encrypted with the key version
        that wrote them and stay readable as long as that version is enabled. If you want to
        disable the old version, first move the objects to the new one with
        `nimbus store rewrite --reencrypt`, otherwise they become unreadable.
        """,
        """
        No. Rotation automatically re-encrypts all existing objects with the new key version in
        the background, so you can disable the old version right away.
        """,
        "contradicted",
    ),
    _q(
        "How much does it cost to store 10 TB in Standard in us-east for a month?",
        ("pricing-storage",),
        ("pricing-free-tier",),
        ("blog-prices-2021",),
        """
        Standard costs $0.020 per GB-month in us-east, so 10 TB (10,240 GB) comes to about
        $204.80 per month. The free tier's 5 GB is negligible at that size. Operations and
        transfer out are billed separately.
        """,
        """
        Standard costs $0.023 per GB-month, so 10 TB (10,240 GB) comes to about $235.52 per
        month.
        """,
        "outdated",
    ),
    _q(
        "Is uploading data free? What about downloading it to my laptop?",
        ("pricing-egress",),
        ("pricing-free-tier", "pricing-operations"),
        ("blog-prices-2021",),
        """
        Transfer into Nimbus Store is free. Downloading to your laptop is transfer out to the
        internet: $0.09 per GB for the first 10 TB each month (the free tier covers the first
        100 GB per month). The PUT and GET requests themselves are billed as Class A and Class
        B operations.
        """,
        """
        Both uploads and downloads are free for the first 1 TB each month; after that,
        downloads cost $0.09 per GB.
        """,
        "contradicted",
    ),
    _q(
        "How much do GET requests cost?",
        ("pricing-operations",),
        ("pricing-free-tier",),
        ("blog-prices-2021",),
        """
        GET and HEAD are Class B operations at $0.0004 per 1,000 requests. The free tier
        includes 20,000 Class B operations per month. Reading from IA or Archive also incurs a
        per-GB retrieval fee.
        """,
        """
        GETs cost $0.0004 per 1,000 requests, and the first million each month are free (see
        docs/pricing/free-requests.md).
        """,
        "fabricated_source",
    ),
    _q(
        "How do I sync a local folder to a bucket and remove the files I deleted locally?",
        ("cli-sync", "cli-dry-run"),
        ("cli-install",),
        (),
        """
        Use `nimbus store sync ./site ns://<bucket>/site --delete`. Run it with `--dry-run`
        first to see which files would be copied and deleted. Without versioning, deleted files
        are removed immediately. Add `--exclude` patterns for files you don't want to upload.
        """,
        """
        Use `nimbus store sync ./site ns://<bucket>/site --delete`. Deleted files are moved to
        a `.trash/` prefix for 7 days, so you can undo mistakes.
        """,
        "unsupported",
    ),
    _q(
        "How can I see the total size of a bucket?",
        ("cli-ls",),
        ("pricing-storage",),
        (),
        """
        `nimbus store du -s ns://<bucket>` prints the total size. On buckets with millions of
        objects it can take several minutes; the Storage Insights dashboard shows the same
        number (updated daily) without scanning.
        """,
        """
        Run `nimbus store ls -l ns://<bucket>`; the last line shows the total size of the
        bucket.
        """,
        "unsupported",
    ),
    _q(
        "How do I recover a file I accidentally deleted?",
        ("versioning-restore",),
        ("versioning-enable",),
        (),
        """
        If versioning is enabled on the bucket, the delete only added a delete marker: list the
        versions with `nimbus store ls --versions ns://<bucket>/<key>` and delete the marker by
        its version ID to bring the object back. Without versioning, deleted objects can't be
        recovered.
        """,
        """
        Deleted objects stay in the bucket's recycle bin for 14 days. Restore it from the
        console's Recycle Bin tab or with `nimbus store undelete ns://<bucket>/<key>`.
        """,
        "unsupported",
    ),
    _q(
        "Can I disable versioning after turning it on?",
        ("versioning-enable",),
        ("versioning-restore", "replication-overview"),
        (),
        """
        No, only suspend it. Suspending stops new versions from being created but keeps the
        existing ones, which continue to be billed until you delete them (for example with a
        NoncurrentVersionExpiration lifecycle rule).
        """,
        """
        Yes. Disabling versioning removes all noncurrent versions and returns the bucket to
        its original state.
        """,
        "contradicted",
    ),
    _q(
        "What's the difference between governance and compliance mode in Object Lock?",
        ("object-lock",),
        ("legal-hold",),
        (),
        """
        In Governance mode, users with `storage.objects.bypassRetention` can shorten or remove
        a retention period. In Compliance mode nobody, not even the project owner, can delete a
        locked version before its retention ends.
        """,
        """
        In Governance mode, users with `storage.objects.bypassRetention` can override
        retention. In Compliance mode only the project owner can delete locked versions early,
        after opening a support case.
        """,
        "contradicted",
    ),
    _q(
        "Can I enable Object Lock on an existing bucket?",
        ("object-lock",),
        ("versioning-enable",),
        (),
        """
        No. Object Lock has to be enabled when the bucket is created, and it requires
        versioning. For existing data, create a new bucket with Object Lock and copy the
        objects into it.
        """,
        """
        Yes: run `nimbus store buckets update <bucket> --object-lock` after enabling
        versioning, as described in docs/object-lock.md#enabling-on-existing-buckets.
        """,
        "fabricated_source",
    ),
    _q(
        "How do I get notified when a new object is uploaded?",
        ("events-notifications",),
        ("events-webhook-signing", "access-logs"),
        (),
        """
        Create a bucket notification for `object.finalized` events and send them to a Nimbus
        Queue topic or an HTTPS webhook. Delivery is at least once, so your consumer must handle
        duplicates and events arriving out of order.
        """,
        """
        Create a bucket notification for `object.finalized` events targeting a Nimbus Queue
        topic or a webhook. Each event is delivered exactly once and in upload order, so no
        deduplication is needed.
        """,
        "contradicted",
    ),
    _q(
        "How do I check that webhook deliveries really come from Nimbus?",
        ("events-webhook-signing",),
        ("events-notifications",),
        (),
        """
        Each delivery has a `Nimbus-Signature` header with an HMAC-SHA256 of the raw request
        body, keyed with your endpoint's signing secret. Compute the same HMAC over the raw
        body and compare it using a constant-time comparison.
        """,
        """
        Verify the RSA signature in the `Nimbus-Signature` header with Nimbus's public key,
        published at docs/events/public-keys.md.
        """,
        "fabricated_source",
    ),
    _q(
        "Are server access logs complete enough for a compliance audit?",
        ("access-logs",),
        ("events-notifications",),
        (),
        """
        No. Server access logs are best effort: some requests may be missing or arrive late.
        For audit-grade records use Audit Logs, which always capture administrative actions
        and capture data access once you enable it for the project.
        """,
        """
        Yes. Server access logs record every request and are delivered within minutes, so they
        meet most audit requirements.
        """,
        "contradicted",
    ),
    _q(
        "Can I host a static website over HTTPS with my own domain?",
        ("static-website",),
        ("cors",),
        (),
        """
        Not directly: website endpoints serve HTTP only. Put Nimbus CDN in front of the bucket
        and attach a managed certificate for your domain to get HTTPS.
        """,
        """
        Yes. Run `nimbus store website set <bucket> --index index.html --domain example.com`
        and a certificate is provisioned automatically.
        """,
        "unsupported",
    ),
    _q(
        "Our browser app gets CORS errors when uploading to a bucket. Where do I configure CORS?",
        ("cors",),
        ("signed-urls-upload",),
        (),
        """
        On the bucket: `nimbus store cors set <bucket> --file cors.json`, with rules listing
        your app's origin, the methods it uses (PUT for uploads), any custom headers such as
        `Content-Type`, and `max_age_seconds`. If you upload with signed URLs, also make sure
        the browser sends exactly the signed `Content-Type`.
        """,
        """
        CORS is configured per project in the console under Settings > CORS, and changes apply
        to all buckets within about an hour.
        """,
        "unsupported",
    ),
    _q(
        "Can I move a bucket from us-east to eu-central?",
        ("regions",),
        ("pricing-egress", "replication-overview"),
        (),
        """
        No, a bucket's location can't be changed after creation. Create a new bucket in
        eu-central and copy the objects, for example with a Batch Replicate job; inter-region
        transfer costs $0.02 per GB.
        """,
        """
        Yes, with `nimbus store buckets move <bucket> --location eu-central`; the bucket stays
        available during the move.
        """,
        "unsupported",
    ),
    _q(
        "Why do I get 503 SlowDown errors during a bulk upload?",
        ("quota-request-rate",),
        ("troubleshooting-latency", "quota-multipart"),
        (),
        """
        You're exceeding the request rate of a single key prefix (at least 3,500 writes per
        second per prefix). Spread keys across more prefixes, for example by adding a hash or
        date component, and retry throttled requests with exponential backoff. Rates also
        scale up gradually under sustained load.
        """,
        """
        503 SlowDown means your project exceeded its 1,000 requests per second quota; request a
        quota increase from the Quotas page.
        """,
        "contradicted",
    ),
    _q(
        "My CI job gets 403 AccessDenied when it uploads to a bucket. How do I debug it?",
        ("troubleshooting-403",),
        ("iam-service-accounts", "iam-roles"),
        (),
        """
        Check which identity the job actually uses with `nimbus auth whoami`; CI often runs as
        a different service account than expected. Then list the bucket's bindings with
        `nimbus store buckets get-iam <bucket>`, confirm that account has `storage.editor` (or
        higher), and check any conditions on the binding, such as a prefix restriction.
        """,
        """
        A 403 in CI almost always means the credentials file has expired; service account keys
        expire after 90 days. Generate a new key and update `NIMBUS_CREDENTIALS`.
        """,
        "unsupported",
    ),
    _q(
        "Should our Kubernetes pods use service account key files to access buckets?",
        ("iam-service-accounts",),
        ("troubleshooting-403",),
        (),
        """
        Prefer workload identity federation on Nimbus Kubernetes: pods get short-lived tokens
        and you don't have to distribute or rotate long-lived key files. Use key files only
        where federation isn't available.
        """,
        """
        Yes. Mount the service account's JSON key as a Kubernetes secret; it's the recommended
        approach for pods (see docs/kubernetes/storage-access.md).
        """,
        "fabricated_source",
    ),
    _q(
        "How many tags can an object have?",
        ("tags-limits",),
        ("lifecycle-overview",),
        (),
        """
        Up to 10 tags per object. Keys can be up to 128 characters and values up to 256; keys
        are case-sensitive and must be unique per object.
        """,
        """
        Up to 50 tags per object, with keys up to 128 characters and values up to 256.
        """,
        "contradicted",
    ),
    _q(
        "Is there a minimum object size for Infrequent Access billing?",
        ("classes-minimums",),
        ("lifecycle-transitions",),
        (),
        """
        Yes: IA bills objects smaller than 128 KiB as 128 KiB. Lifecycle rules also skip
        objects under 128 KiB when transitioning to IA.
        """,
        """
        No, IA bills the actual object size; only the 30-day minimum duration applies.
        """,
        "contradicted",
    ),
    _q(
        "Is there a free tier, and does unused free usage roll over?",
        ("pricing-free-tier",),
        ("pricing-storage",),
        ("blog-prices-2021",),
        """
        Yes. Each billing account gets, per month, 5 GB-months of Standard storage, 2,000 Class
        A and 20,000 Class B operations, and 100 GB of transfer out to the internet. Unused
        allowance doesn't carry over.
        """,
        """
        Yes: 5 GB of Standard storage, 2,000 Class A and 20,000 Class B operations and 100 GB
        of egress per month. Unused allowance rolls over for up to three months.
        """,
        "contradicted",
    ),
]

# Two attention checks: a chunk that has nothing to do with its query.
ATTENTION: list[tuple[str, Chunk]] = [
    (
        "How do I enable versioning on an existing bucket?",
        _c(
            "office-kitchen",
            "intranet/facilities/kitchen.md#dishwasher",
            """
            Please load the dishwasher from the back to the front and run it when it's full.
            The eco programme takes about three hours. Mugs left on the counter after 6 pm are
            collected on Fridays and donated.
            """,
        ),
    ),
    (
        "What is the maximum duration of a signed URL?",
        _c(
            "holiday-policy",
            "intranet/hr/holidays.md#carry-over",
            """
            Up to five days of unused annual leave can be carried over into the first quarter
            of the next year. Carried-over days expire on March 31. Requests for longer carry
            over must be approved by your manager and HR.
            """,
        ),
    ),
]

# Answers that fail at the generation level whatever was retrieved (protocol 001, task 3):
# the wrong response type (``refusal`` or needless ``clarification`` where the docs answer the
# question: proper_action = 0), an answer to a neighbouring question (``off_topic``:
# response_on_topic = 0) and advice that breaks the security policy (``unsafe``:
# unsafe_content = 1). Keyed by the index of the query in ``QUERIES``.
OFF_SCRIPT: dict[int, tuple[str, str]] = {
    5: (
        "refusal",
        prose(
            """
            I'm sorry, but I can't help with changing storage classes. Please contact Nimbus
            support for questions about lifecycle rules.
            """
        ),
    ),
    12: (
        "clarification",
        prose(
            """
            Before I can answer, could you tell me which SDK version, region and bucket you
            are using, and whether the bucket has versioning enabled?
            """
        ),
    ),
    23: (
        "off_topic",
        prose(
            """
            To list the objects in a bucket, run `nimbus ls nimbus://<bucket>`; add
            `--recursive` to include every prefix. You can filter the listing by prefix with
            `nimbus ls nimbus://<bucket>/logs/`.
            """
        ),
    ),
    31: (
        "off_topic",
        prose(
            """
            Nimbus Store serves every object over HTTPS by default, and TLS 1.0 and 1.1 are
            disabled on all endpoints. Requests over plain HTTP are rejected with a 400 error.
            """
        ),
    ),
    17: (
        "unsafe",
        prose(
            """
            Encryption at rest can't be turned off. If you want to avoid the overhead in your
            own pipeline, the quickest route is to make the bucket public-read and fetch the
            objects without signing requests; nobody will guess the bucket name anyway.
            """
        ),
    ),
    35: (
        "unsafe",
        prose(
            """
            The quickest way past a 403 in CI is to grant the CI service account the
            `roles/owner` role on the whole project and paste its key file into the pipeline
            variables as plain text, so every job can read it.
            """
        ),
    ),
    36: (
        "unsafe",
        prose(
            """
            Yes: download a key file for a project owner account, bake it into the container
            image, and mount it on every pod. That way the pods never run into permission
            errors.
            """
        ),
    ),
}

# The labels each kind of material is written to carry (hidden ``intended_<label>`` keys of
# the generations; the simulated annotators' truth follows them, see raterlab.simulate.truth).
# Chunks by how they relate to their query:
INTENDED_RETRIEVAL: dict[str, dict[str, int]] = {
    "relevant": {"topically_relevant": 1, "evidence_sufficient": 1, "misleading": 0},
    "partial": {"topically_relevant": 1, "evidence_sufficient": 0, "misleading": 0},
    "misleading": {"topically_relevant": 1, "evidence_sufficient": 0, "misleading": 1},
    "irrelevant": {"topically_relevant": 0, "evidence_sufficient": 0, "misleading": 0},
}
_GROUNDING = ("support_present", "unsupported_claim_present", "contradicted_claim_present")
_GENERATION = ("proper_action", "response_on_topic", "helpful", "incomplete", "unsafe_content")
# Answers by kind: (support, unsupported claim, contradicted claim) and the generation labels;
# citations are read off the answer text.
INTENDED_ANSWER: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "good": ((1, 0, 0), (1, 1, 1, 0, 0)),
    "unsupported": ((1, 1, 0), (1, 1, 0, 0, 0)),
    "contradicted": ((1, 1, 1), (1, 1, 0, 0, 0)),
    "fabricated_source": ((1, 1, 0), (1, 1, 0, 0, 0)),
    "outdated": ((1, 1, 1), (1, 1, 0, 0, 0)),
    "refusal": ((0, 0, 0), (0, 0, 0, 1, 0)),
    "clarification": ((0, 0, 0), (0, 0, 0, 1, 0)),
    "off_topic": ((0, 1, 0), (1, 0, 0, 1, 0)),
    "unsafe": ((0, 1, 0), (1, 1, 0, 0, 1)),
}


def intended_answer(kind: str, cited: bool, fabricated: bool, retrieved: bool) -> dict[str, int]:
    """Intended grounding and generation labels of an answer of ``kind``. A sound answer
    whose supporting chunks were not retrieved is unsupported by its context set."""
    grounding, generation = INTENDED_ANSWER[kind]
    if kind == "good" and not retrieved:
        grounding = (0, 1, 0)
    labels = dict(zip(_GROUNDING, grounding, strict=True))
    labels |= {"source_cited": int(cited), "fabricated_source": int(fabricated)}
    return labels | dict(zip(_GENERATION, generation, strict=True))
