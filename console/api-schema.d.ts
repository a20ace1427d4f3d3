// Generated from /v2/openapi.json by scripts/console-api-types.ts: do not edit; run it again after a change to the API.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness (no key) */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: database reachable, migrations done, evaluator running (no key) */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz/evaluation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Evaluation health: this process's cycles end and Graphite answers (no key; not readiness: a load balancer watches /readyz) */
        get: operations["getEvaluationHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (no API key; the metrics token as a Bearer token when serve has --metrics-token) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document (no key) */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 2. Search alerts: (name OR id) AND search */
        get: operations["searchAlerts"];
        put?: never;
        /** 1. Create an alert */
        post: operations["createAlert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 3. Read one alert */
        get: operations["getAlert"];
        /**
         * 4. Update an alert (partial)
         * @description Only the fields given change; the merged alert is checked as a whole. An object exactly as GET returned it is accepted: read-only fields are ignored when `id` is this id (another id is 400).
         */
        put: operations["updateAlert"];
        post?: never;
        /** 5. Delete an alert */
        delete: operations["deleteAlert"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/{id}/muted/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 8. Mute status */
        get: operations["getAlertMuteStatus"];
        put?: never;
        /** 6. Mute an alert */
        post: operations["muteAlert"];
        /** 7. Unmute an alert */
        delete: operations["unmuteAlert"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/muted/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** 9. Mute alerts (ids and/or search; both empty = all), all or nothing */
        post: operations["muteAlerts"];
        /** 10. Unmute alerts, all or nothing */
        delete: operations["unmuteAlerts"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/history/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 11. Alert history, keyed by alert id, newest first */
        get: operations["getAlertHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/notifications/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 13. Search channels (criteria OR-ed) */
        get: operations["searchChannels"];
        put?: never;
        /** 12. Create a channel */
        post: operations["createChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/notifications/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** 14. Read one channel */
        get: operations["getChannel"];
        /**
         * 15. Update a channel (partial)
         * @description Only the fields given change. An object exactly as GET returned it is accepted: read-only fields are ignored when `id` is this id (another id is 400).
         */
        put: operations["updateChannel"];
        post?: never;
        /** 16. Delete a channel (removed from its alerts) */
        delete: operations["deleteChannel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/notifications/{id}/signing-secret/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The secret that signs a channel's webhook bodies
         * @description Derived by the server from its own key, the channel id and the channel's generation: the same on every read and every replica until the channel rotates it. Webhook bodies carry `Alertform-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<exact body>">` under it (and, while a rotation lasts, a second `v1=` under `previous_signing_secret`), and the body-only `X-Alertform-Signature: sha256=<hex HMAC-SHA256 of the exact body>` (see `webhooks`). Answered with Cache-Control: no-store; never logged. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getChannelSigningSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/notifications/{id}/signing-secret/rotate/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new signing secret for a channel, the old one still signing for a while
         * @description The channel moves to a new secret at once. The secret it replaces keeps signing, as a second `v1=` of `Alertform-Signature`, for `previous_valid_seconds` (default 86400, at most 604800; 0 ends it now); a secret older than that stops at once. Answers the new secret and the previous one with its end. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        post: operations["rotateChannelSigningSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/deliveries/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's notifications in the outbox, oldest first (no destinations, no payloads) */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/schedules/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search scheduled mutes (criteria OR-ed) */
        get: operations["searchSchedules"];
        put?: never;
        /** Create a scheduled mute */
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/schedules/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a scheduled mute */
        get: operations["getSchedule"];
        /**
         * Update a scheduled mute (partial)
         * @description Only the fields given change. An object exactly as GET returned it is accepted: read-only fields are ignored when `id` is this id (another id is 400).
         */
        put: operations["updateSchedule"];
        post?: never;
        /** Delete a scheduled mute (removed from its alerts) */
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/{id}/graph/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The alert's criteria with their series, thresholds and alerting periods
         * @description Read from the server's own Graphite with the evaluator's render client (its timeout and batching); a query outside the account's metric prefixes is not run. Alerting periods come from the alert's history. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getAlertGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/{id}/timeline/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The alert's timeline: transitions, mutes, notifications sent and suppressed, newest first
         * @description Unlike /v2/alerts/history/ (unchanged), it also shows mutes and every notification decision of the evaluator: sent (one entry per channel) or suppressed, with why. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getAlertTimeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/{id}/backtest/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the current definition would have done over the window
         * @description The same code as `alertform plan --impact` (src/impact): one render per query over the window plus its look-back, then the evaluator's judging, backoff and scheduled mutes replayed step by step. Bounded: at most 50 series per criterion are replayed (`note` says when more matched), and an account runs at most 2 backtests at a time on each server process. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getAlertBacktest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/{id}/definition/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The alert as `alertform pull` writes it, and whether it is managed from git
         * @description `yaml` is pull's alerts.yaml holding this one alert (references by name, defaults left out). `managed_from_git` is set when alertform's apply wrote the alert: its create and update requests carry the header `X-Alertform-Managed: git`; a write without it leaves the mark as it is. The mark is not part of the alert's read object, so it never shows in a plan. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getAlertDefinition"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/graphs/{token}.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A PNG of an alert's graph behind a signed, expiring link (the links notifications carry)
         * @description Open (no key): the token, signed by the server (HMAC-SHA256 with a key kept in its database) and holding the alert id, the notification time and the expiry, is the only credential. Sent only with alertform serve --public-url. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getGraphPicture"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/deliveries/{id}/retry/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Put a dead-lettered delivery back in the outbox
         * @description The delivery becomes pending again, due at once, with its attempts and age reset (its last error stays until the next attempt). alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        post: operations["retryDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/notifications/{id}/test/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test notification to a channel through the outbox
         * @description Writes a delivery of event `test` (alert id "") that the delivery worker sends like any other, retries included. Every notifier marks it: "[TEST] alertform test notification: no alert is firing", and the webhook body has `test: true`. Through a template, the title still starts with "[TEST] " and the body with a line naming the account that asked ("[TEST] This is a test notification sent by alertform at the request of account ID. No alert is firing."), whatever the template says. Limited per channel and per account, as it sends the tenant's wording to the tenant's address through the operator's mail server. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        post: operations["testChannel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/overview/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Counts per state and one page of the account's alerts, filtered, searched and sorted
         * @description One request serves the console’s first paint, with 10,000 alerts too (the state of every alert from one summary read; the page’s rows in full). alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getAlertOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/{id}/scheduled-mutes/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The alert's scheduled mutes with their current or next window
         * @description Each schedule as GET /v2/schedules/{id} reads it, plus whether it mutes the alert now and its window. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getAlertScheduledMutes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/{id}/ack/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge the alert's current alerting episode
         * @description No reminders or escalations until it recovers, `until` passes or it is withdrawn. The first acknowledgement of an episode tells every channel of the alert through the outbox: PagerDuty `acknowledge` (same dedup_key), OpsGenie acknowledge by alias, VictorOps ACKNOWLEDGEMENT (same entity_id), a short "acknowledged by" message elsewhere; acknowledging again changes the note or end and tells nobody. History: `acknowledged` with the author. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        post: operations["acknowledgeAlert"];
        /**
         * Withdraw the alert's acknowledgement
         * @description Reminders and escalations resume. History: `unacknowledged`, reason `withdrawn by ...` (an acknowledgement that ends by itself is `expired` or `recovered`). alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        delete: operations["withdrawAcknowledgement"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/ack-links/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The confirmation page of a one-click acknowledgement link (never acknowledges)
         * @description Open (no key): the token, signed by the server with the key of the graph links and holding the alert id, the alerting episode and an expiry 24 hours after the notification, is the only credential. Sent in alerting, reminder and escalation notifications (webhook `ack_url`, a link in Slack, email and PagerDuty's links) with alertform serve --public-url. A GET shows a page with a form (or, once acknowledged, who has it) and changes nothing (mail scanners follow links). alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["showAckLink"];
        put?: never;
        /**
         * Acknowledge through a one-click link (form `by`, `note`; or JSON)
         * @description Open (no key): the token, signed by the server with the key of the graph links and holding the alert id, the alerting episode and an expiry 24 hours after the notification, is the only credential. Sent in alerting, reminder and escalation notifications (webhook `ack_url`, a link in Slack, email and PagerDuty's links) with alertform serve --public-url. An HTML form post answers a page; a JSON body answers JSON. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        post: operations["acknowledgeByLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/maintenance_windows/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List maintenance windows, oldest first
         * @description Paged like the scheduled mutes. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["listMaintenanceWindows"];
        put?: never;
        /**
         * Create a maintenance window
         * @description While active, the alerts it matches send no notifications (as a scheduled mute); their history records `muted_by_window` once per occurrence, and `window_changed` for every write of a window that matches them. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        post: operations["createMaintenanceWindow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/maintenance_windows/preview/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The alerts a window would match now
         * @description Whatever its timing: what it mutes whenever it is active. Nothing is stored. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        post: operations["previewMaintenanceWindow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/maintenance_windows/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a maintenance window
         * @description alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getMaintenanceWindow"];
        /**
         * Update a maintenance window (partial)
         * @description Only the fields given change; null clears one (give `starts_at` with `start_time: null, repeat: null` to make a recurring window a one-off one). alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        put: operations["updateMaintenanceWindow"];
        post?: never;
        /**
         * Delete a maintenance window
         * @description alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        delete: operations["deleteMaintenanceWindow"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/alerts/overview/groups/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's alerts grouped by path nodes, with the count of each state per group
         * @description An alert's keys are the nodes of the series it has triggered, or of its metric's path when none; the groups with the most alerting come first. alertform's own extension (additive; Hosted Graphite has no such endpoint).
         */
        get: operations["getAlertOverviewGroups"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    notification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A notification POSTed to a webhook channel's URL
         * @description Sent by the delivery worker once per notification and channel, retried with backoff on network errors, 5xx, 408 and 429 (Retry-After honoured) until the server's --delivery-max-age. Redirects are not followed. Verify Alertform-Signature (its timestamp within your tolerance window, 300 s advised) before trusting the body, drop repeats by `id`, pair notifications of one alert by `alert_id` and order them by `started_at` and `time`.
         */
        post: operations["webhookNotification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description Unique name of the alert; its identity. */
        "alert.name": string;
        /** @description Graphite metric query; may contain functions and wildcards. */
        "alert.metric": string;
        /** @description Minutes the threshold must be breached. Absent, null or empty: instantaneous. Required for `missing`. */
        "alert.timePeriod": number | null | "";
        /** @description Which values each criteria type requires. */
        "alert.criteriaRules": unknown & unknown & unknown & unknown;
        /** @description The criteria of the alert letter `a`. above needs above_value, below needs below_value, outside_bounds needs both with below_value < above_value, missing needs time_period. */
        "alert.criteria": {
            /** @enum {unknown} */
            type: "above" | "below" | "outside_bounds" | "missing";
            /** @description Triggers when the value is above it (above, outside_bounds). */
            above_value?: number;
            /** @description Triggers when the value is below it (below, outside_bounds). */
            below_value?: number;
            time_period?: components["schemas"]["alert.timePeriod"];
        } & components["schemas"]["alert.criteriaRules"];
        /** @description A criterion of a composite alert: criteria plus its own metric. The same rules as alert_criteria. */
        "alert.additionalCriterion": {
            /** @enum {unknown} */
            type: "above" | "below" | "outside_bounds" | "missing";
            /** @description Triggers when the value is above it (above, outside_bounds). */
            above_value?: number;
            /** @description Triggers when the value is below it (below, outside_bounds). */
            below_value?: number;
            time_period?: components["schemas"]["alert.timePeriod"];
            metric: components["schemas"]["alert.metric"];
        } & components["schemas"]["alert.criteriaRules"];
        /** @description Up to 3 more criteria, keyed by a single letter other than `a` (case-insensitive, stored lower case); each must appear in `expression`. */
        "alert.additionalCriteria": {
            [key: string]: components["schemas"]["alert.additionalCriterion"];
        };
        /** @description Boolean expression over criteria letters with && and || (&& binds tighter) and parentheses. It may use only `a` and the letters of additional_criteria, and must use each of those. Default `a`; stored in canonical form (`A&&(B)` reads `a && b`). */
        "alert.expression": string;
        /** @description `state_change`, `["state_change"]` or `["every", minutes]`. Empty: every 60 minutes. */
        "alert.notificationType": "state_change" | [
            "state_change"
        ] | [
            "every",
            number
        ] | never[] | "" | null;
        "alert.create": {
            name: components["schemas"]["alert.name"];
            metric: components["schemas"]["alert.metric"];
            alert_criteria: components["schemas"]["alert.criteria"];
            additional_criteria?: components["schemas"]["alert.additionalCriteria"];
            expression?: components["schemas"]["alert.expression"];
            /** @description Ids (or, in definitions, names) of this account's scheduled mutes; an unknown one is 400. */
            scheduled_mutes?: string[];
            /** @description Ids or descriptions of this account's channels (an id wins over a description); an unknown one is 400. Read back as ids. Default: the `Email me` channel. At most 20, and at most 20 distinct channels with the escalation steps' (alertform's cap). */
            notification_channels?: string[];
            notification_type?: components["schemas"]["alert.notificationType"];
            /** @description Free text sent with notifications. */
            info?: string | null;
            /**
             * @description Notify when the graphite function query fails. A non-null value only when the metric (or an additional criterion's metric) calls a graphite function, e.g. sumSeries(...); default notify for those, null otherwise.
             * @enum {null|string}
             */
            on_query_failure?: null | "ignore" | "notify";
            escalation?: components["schemas"]["alert.escalation"];
            flap_guard?: components["schemas"]["alert.flapGuard"];
            /**
             * @description Extension (alertform): the severity of this alert's PagerDuty events. null or absent: critical (query failures: error).
             * @enum {null|string}
             */
            pagerduty_severity?: null | "critical" | "error" | "warning" | "info";
            /**
             * @description Extension (alertform): the priority of this alert's OpsGenie alerts. null or absent: P1 (query failures: P3).
             * @enum {null|string}
             */
            opsgenie_priority?: null | "P1" | "P2" | "P3" | "P4" | "P5";
            /** @description Extension (alertform): the settle delay of this alert, in seconds: only data older than now minus this delay is judged (points may still be arriving for newer ones). null or absent: the server's --settle-delay. */
            settle_seconds?: number | null;
            /**
             * @description Extension (alertform): what the server does when the alert's queries answer no data (no series, or only nulls in the window it judges): ignore (shown as no_data, nobody told), notify (a no_data notification, and another when data returns) or alerting (treated as alerting). null or absent: the server's default (--on-no-data, ignore unless set).
             * @enum {null|string}
             */
            on_no_data?: null | "ignore" | "notify" | "alerting";
            depends_on?: components["schemas"]["alert.dependsOn"];
        };
        "alert.update": {
            name?: components["schemas"]["alert.name"];
            metric?: components["schemas"]["alert.metric"];
            alert_criteria?: components["schemas"]["alert.criteria"];
            additional_criteria?: components["schemas"]["alert.additionalCriteria"];
            expression?: components["schemas"]["alert.expression"];
            /** @description Ids (or, in definitions, names) of this account's scheduled mutes; an unknown one is 400. */
            scheduled_mutes?: string[];
            /** @description Ids or descriptions of this account's channels (an id wins over a description); an unknown one is 400. Read back as ids. Default: the `Email me` channel. At most 20, and at most 20 distinct channels with the escalation steps' (alertform's cap). */
            notification_channels?: string[];
            notification_type?: components["schemas"]["alert.notificationType"];
            /** @description Free text sent with notifications. */
            info?: string | null;
            /**
             * @description Notify when the graphite function query fails. A non-null value only when the metric (or an additional criterion's metric) calls a graphite function, e.g. sumSeries(...); default notify for those, null otherwise.
             * @enum {null|string}
             */
            on_query_failure?: null | "ignore" | "notify";
            escalation?: components["schemas"]["alert.escalation"];
            flap_guard?: components["schemas"]["alert.flapGuard"];
            /** @description Read-only: accepted on PUT when it is this alert's id (so that an object read by GET can be sent back unchanged); another id is 400. */
            id?: string;
            /** @description Read-only, accepted on PUT so that an object read by GET can be sent back unchanged: ignored. */
            status?: string;
            /** @description Read-only, accepted on PUT so that an object read by GET can be sent back unchanged: ignored; mute with POST .../muted/. */
            muted?: boolean;
            /** @description Read-only, accepted on PUT so that an object read by GET can be sent back unchanged: ignored. */
            currently_triggered_metrics?: string[];
            /** @description Read-only (an alertform extension), accepted on PUT so that an object read by GET can be sent back unchanged: ignored; acknowledge with POST .../ack/. */
            acknowledgement?: {
                [key: string]: unknown;
            } | null;
            /** @description Read-only (an alertform extension), accepted on PUT so that an object read by GET can be sent back unchanged: ignored. */
            state?: string;
            /**
             * @description Read-only (an alertform extension): how the server judges the alert, on the metric stream or by render polling. Accepted on PUT so that an object read by GET can be sent back unchanged: ignored.
             * @enum {unknown}
             */
            evaluated_by?: "stream" | "render";
            /**
             * @description Extension (alertform): the severity of this alert's PagerDuty events. null or absent: critical (query failures: error).
             * @enum {null|string}
             */
            pagerduty_severity?: null | "critical" | "error" | "warning" | "info";
            /**
             * @description Extension (alertform): the priority of this alert's OpsGenie alerts. null or absent: P1 (query failures: P3).
             * @enum {null|string}
             */
            opsgenie_priority?: null | "P1" | "P2" | "P3" | "P4" | "P5";
            /** @description Extension (alertform): the settle delay of this alert, in seconds: only data older than now minus this delay is judged (points may still be arriving for newer ones). null or absent: the server's --settle-delay. */
            settle_seconds?: number | null;
            /**
             * @description Extension (alertform): what the server does when the alert's queries answer no data (no series, or only nulls in the window it judges): ignore (shown as no_data, nobody told), notify (a no_data notification, and another when data returns) or alerting (treated as alerting). null or absent: the server's default (--on-no-data, ignore unless set).
             * @enum {null|string}
             */
            on_no_data?: null | "ignore" | "notify" | "alerting";
            depends_on?: components["schemas"]["alert.dependsOn"];
        };
        "alert.mute": {
            duration: number;
            /** @description Extension (audit): who mutes (default: `api`). Recorded in the alert's history. */
            by?: string;
            /** @description Extension (audit): why. Recorded in the alert's history. */
            reason?: string;
        };
        "alert.bulkMute": {
            ids?: string[];
            search?: string;
            duration: number;
            /** @description Extension (audit): who mutes (default: `api`). Recorded in the alert's history. */
            by?: string;
            /** @description Extension (audit): why. Recorded in the alert's history. */
            reason?: string;
        };
        "alert.bulkUnmute": {
            ids?: string[];
            search?: string;
            /** @description Extension (audit): who mutes (default: `api`). Recorded in the alert's history. */
            by?: string;
            /** @description Extension (audit): why. Recorded in the alert's history. */
            reason?: string;
        };
        /** @description alertform extension: escalation steps, strictly ascending by after_minutes. While the alert is alerting and not acknowledged, each step notifies its channels once, after_minutes after the alerting episode began; the recovery also goes to them. Empty or absent: no escalation. */
        "alert.escalation": {
            /** @description Minutes of alerting before this step notifies. */
            after_minutes: number;
            /** @description Ids or descriptions of this account's channels; an unknown one is 400. Read back as ids. */
            notification_channels: string[];
        }[];
        /** @description An alertform extension: acknowledge the alert's current alerting episode (POST /v2/alerts/{id}/ack/). */
        "alert.ack": {
            /** @description Who acknowledges: a person's name (API keys belong to accounts, not people). */
            by: string;
            /** @description Why, or what is being done. */
            note?: string | null;
            /** @description When the acknowledgement ends by itself (it ends anyway when the alert recovers): unix seconds in the future, or a duration from now in alertform's grammar (`90`, `30m`, `2h`, `1d`); null or absent: until the alert recovers. */
            until?: number | string | null;
        };
        /** @description Extension (noise control): an alert that changes state more than max_changes times within the window notifies once with `flapping`, then holds its alerting and recovered notifications until it has been stable for the window, when it notifies its state once. null: no guard. */
        "alert.flapGuard": {
            max_changes: number;
            window_minutes: number;
        } | null;
        /** @description Extension (alertform): the alerts this alert depends on. While one of them is alerting, this alert's new alerting, no_data and escalation notifications are held (history: `held`), it is still evaluated and shown, and its resolve goes out exactly when its alerting did. With `nodes`, a child series is held only by the parent's series whose path nodes at `parent_nodes` (default: the same indexes) equal the child series' nodes at `nodes`. A cycle (an alert depending on itself, directly or through others) is refused. null or []: none. */
        "alert.dependsOn": {
            /** @description The parent alert: an id or a name on write (an id wins over a name); read back as its id. Deleting the parent removes it here. */
            alert: string;
            /** @description 0-based path nodes of the child's series (1 is `dc1` of `servers.dc1.web3.disk`). */
            nodes?: number[];
            /** @description 0-based path nodes of the parent's series compared with `nodes`, as many as `nodes`; default: the same indexes. */
            parent_nodes?: number[];
        }[] | null;
        /** @description DELETE .../muted/ may carry a body with who unmutes and why (both optional). */
        "alert.unmute": {
            /** @description Extension (audit): who mutes (default: `api`). Recorded in the alert's history. */
            by?: string;
            /** @description Extension (audit): why. Recorded in the alert's history. */
            reason?: string;
        };
        "channel.create": {
            /** @enum {unknown} */
            type: "email" | "pagerduty" | "slack" | "webhook" | "victorops" | "opsgenie";
            /** @description Unique name of the channel; its identity. */
            description: string;
            /** @description Email address(es) (comma separated, at most 10, mail domains only: no domain literal, IP address or localhost), webhook URL, or integration key, by type. */
            destination: string;
            /** @description pagerduty and victorops only: resolve the incident on recovery. */
            auto_resolve?: boolean;
            throttle?: components["schemas"]["channel.throttle"];
            template?: components["schemas"]["channel.template"];
            group_by?: components["schemas"]["channel.groupBy"];
        };
        "channel.update": {
            /** @enum {unknown} */
            type?: "email" | "pagerduty" | "slack" | "webhook" | "victorops" | "opsgenie";
            /** @description Unique name of the channel; its identity. */
            description?: string;
            /** @description Email address(es) (comma separated, at most 10, mail domains only: no domain literal, IP address or localhost), webhook URL, or integration key, by type. */
            destination?: string;
            /** @description pagerduty and victorops only: resolve the incident on recovery. */
            auto_resolve?: boolean;
            throttle?: components["schemas"]["channel.throttle"];
            /** @description Read-only: accepted on PUT when it is this channel's id; another id is 400. */
            id?: string;
            /** @description Read-only, accepted on PUT so that an object read by GET can be sent back unchanged: ignored. */
            last_error?: {
                time?: string;
                message?: string;
            } | null;
            /** @description Read-only (extension), accepted on PUT so that an object read by GET can be sent back unchanged: ignored. */
            pending_deliveries?: number;
            /** @description Read-only (extension), accepted on PUT so that an object read by GET can be sent back unchanged: ignored. */
            oldest_pending_seconds?: number;
            template?: components["schemas"]["channel.template"];
            group_by?: components["schemas"]["channel.groupBy"];
        };
        /** @description Extension (noise control): at most max_notifications notifications per window to this channel; the rest are held and listed in one `throttled_summary` notification when the window ends. null: no throttle. */
        "channel.throttle": {
            max_notifications: number;
            window_minutes: number;
        } | null;
        /** @description Extension (alertform): the message this channel sends, in a safe subset of Mustache (docs/server.md lists the fields: name, value, metric, criteria, info, event, summary, time, triggered, links). Either part may be left out: it keeps the default wording. null: the default message. Refused (invalid_body at template.title or template.body): a {{#triggered}} section inside another, sections nested more than 4 deep. A render stops at 65,536 characters or 20,000 steps and ends with "… [message cut at N characters by alertform: why]". */
        "channel.template": {
            /** @description Subject, summary, Slack text, OpsGenie message, VictorOps display name. */
            title?: string;
            /** @description Email body, Slack attachment text, PagerDuty custom_details.body, OpsGenie description, VictorOps state message, webhook `body`. */
            body?: string;
        } | null;
        /** @description Extension (alertform): group this channel's notifications by path nodes of the triggered series (nodes [1] of `servers.dc1.web3.cpu` is `dc1`). The first message of a new group leaves at most wait_seconds after its first member; later members within interval_seconds go in the next message; one message gives the count and the first 10 members. null: one message per notification. */
        "channel.groupBy": {
            /** @description 0-based path nodes that make the group key. */
            nodes: number[];
            /** @description How long the first message of a new group waits for more members. Default 5. */
            wait_seconds?: number;
            /** @description How often later members of a group are sent together. Default 60. */
            interval_seconds?: number;
        } | null;
        "schedule.create": {
            /** @description Unique name of the schedule; its identity. */
            name: string;
            /** @description HH:MM, 24 h, in `timezone`. */
            start_time: string;
            /** @description Minutes the mute lasts. */
            duration: number;
            /** @description UTC, or an offset from UTC-12 to UTC+14 (e.g. UTC+5:30). Default UTC. */
            timezone?: string;
            /** @description Week days it repeats on. Absent or empty: once, at the next start_time after creation. */
            repeat?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
        };
        "schedule.update": {
            /** @description Unique name of the schedule; its identity. */
            name?: string;
            /** @description HH:MM, 24 h, in `timezone`. */
            start_time?: string;
            /** @description Minutes the mute lasts. */
            duration?: number;
            /** @description UTC, or an offset from UTC-12 to UTC+14 (e.g. UTC+5:30). Default UTC. */
            timezone?: string;
            /** @description Week days it repeats on. Absent or empty: once, at the next start_time after creation. */
            repeat?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
            /** @description Read-only: accepted on PUT when it is this scheduled mute's id; another id is 400. */
            id?: string;
            /** @description Read-only, accepted on PUT so that an object read by GET can be sent back unchanged: ignored; attach a scheduled mute through the alert's scheduled_mutes. */
            alerts?: string[];
        };
        Error: {
            error: {
                /**
                 * @description What happened, whatever the status.
                 * @enum {string}
                 */
                code: "unauthorized" | "not_found" | "invalid_body" | "invalid_query" | "conflict" | "payload_too_large" | "quota_exceeded" | "rate_limited" | "internal" | "unavailable";
                message: string;
                /** @description One entry per field or parameter at fault (at most 100). */
                details?: {
                    /** @description Dot path, e.g. alert_criteria.above_value. */
                    path: string;
                    message: string;
                }[];
                /** @description How many problems there were, when more than the 100 listed. */
                details_total?: number;
            };
        };
        Created: {
            id: string;
            /** @description Path of the new object, e.g. /v2/alerts/<id>. */
            url: string;
            /** @description Additive (alert creates): what will not work as the alert stands, e.g. its only channel is an `Email me` without an address, so every notification would be dead-lettered. Absent when there is nothing to say. */
            warnings?: string[];
        };
        Deleted: {
            id: string;
            /** @constant */
            deleted: true;
        };
        ChannelDeleted: {
            id: string;
            /** @constant */
            deleted: true;
            /** @description Alerts the channel was removed from. */
            alerts_changed: number;
        };
        /** @description Always the list form: `["state_change"]`, or `["every", N]` with "every" first and N (minutes) second. Spelled without relying on prefixItems: `items` allows the values of any position. */
        NotificationTypeRead: unknown[] & ([
            "state_change"
        ] | [
            "every",
            number
        ]);
        AlertRead: {
            id: string;
            name: components["schemas"]["alert.name"];
            metric: components["schemas"]["alert.metric"];
            alert_criteria: components["schemas"]["alert.criteria"];
            additional_criteria: components["schemas"]["alert.additionalCriteria"];
            /** @description Canonical form, letters lower case; `a` for a plain alert. */
            expression: string;
            /** @description Channel ids (names given on write are resolved). At most 20 distinct channels with the escalation steps' channels. */
            notification_channels: string[];
            notification_type: components["schemas"]["NotificationTypeRead"];
            /** @description Ids of scheduled mutes. */
            scheduled_mutes: string[];
            /** @description Series that hold now (read-only). */
            currently_triggered_metrics: string[];
            /** @description Muted by hand or by an active scheduled mute (read-only). */
            muted: boolean;
            /**
             * @description Set by the evaluator (read-only).
             * @enum {string}
             */
            status: "healthy" | "alerting";
            /**
             * @description alertform extension (read-only): what the server knows about the alert now, the same answer as the console, `alertform status` and /metrics. not_evaluated: nothing evaluates it (no --graphite-url) or it was never judged; query_failing: its queries failed at the last cycle; no_data: its queries answered no data to judge; otherwise alerting or healthy as `status` says.
             * @enum {string}
             */
            state: "healthy" | "alerting" | "no_data" | "query_failing" | "not_evaluated";
            /**
             * @description alertform extension (read-only): how this server judges the alert. stream: on the metric stream it receives (`serve --carbon-listen`), as its buckets complete, with no render request; render: by polling Graphite every interval (no stream, a function the local engine does not evaluate, a `missing` rule, or the stream fallen back to polling).
             * @enum {string}
             */
            evaluated_by: "stream" | "render";
            info: string | null;
            /**
             * @description null for a metric without graphite functions; default notify for one with.
             * @enum {string|null}
             */
            on_query_failure: null | "ignore" | "notify";
            /** @description alertform's own extension (additive; Hosted Graphite has no such field): escalation steps with channel ids, [] when none. Each step notifies its channels once when the alert has been alerting (and not acknowledged) for after_minutes. */
            escalation: components["schemas"]["alert.escalation"];
            /**
             * @description Extension (alertform): this alert's PagerDuty event severity; null is the default (critical; query failures error).
             * @enum {string|null}
             */
            pagerduty_severity: null | "critical" | "error" | "warning" | "info";
            /**
             * @description Extension (alertform): this alert's OpsGenie priority; null is the default (P1; query failures P3).
             * @enum {string|null}
             */
            opsgenie_priority: null | "P1" | "P2" | "P3" | "P4" | "P5";
            /** @description Extension (alertform): this alert's settle delay in seconds; null is the server's (`serve --settle-delay`, default 60). Only data older than now minus the delay is judged, and a 30 s bucket reaching past that cutoff not at all: points that may still be arriving (a late collector, half the series of an aggregate) can neither trigger nor resolve. 0 judges the newest points as they are. */
            settle_seconds: number | null;
            /**
             * @description Extension (alertform): what no data does for this alert (ignore, notify, alerting); null is the server's default (--on-no-data).
             * @enum {string|null}
             */
            on_no_data: null | "ignore" | "notify" | "alerting";
            /** @description Who acknowledged the current alerting episode (POST /v2/alerts/{id}/ack/): no reminders or escalations while it holds. Ends when the alert recovers, when `until` passes, or when withdrawn; null when none. Read-only; alertform's own extension (additive; Hosted Graphite has no such endpoint). */
            acknowledgement: null | {
                /** @description Who acknowledged (a person, as they gave their name). */
                by: string;
                note: string | null;
                /** @description Unix seconds. */
                at: number;
                /** @description Unix seconds at which it ends by itself; null: when the alert recovers. */
                until: number | null;
            };
            /** @description alertform extension (noise control): the flap guard, null when none. The hosted service does not return it. */
            flap_guard: components["schemas"]["alert.flapGuard"];
            /** @description alertform extension (noise control): the parents, by id; null when none. While one alerts, this alert's new pages are held (history `held`). The hosted service does not return it. */
            depends_on: components["schemas"]["alert.dependsOn"];
        };
        AlertPage: {
            alerts: components["schemas"]["AlertRead"][];
            /** @description Whether a further page has items. */
            next_page: boolean;
        };
        MuteStatus: {
            id: string;
            name: string;
            muted: boolean;
            /** @description Remaining whole minutes, rounded up; 0 when not muted. */
            duration: number;
            scheduled_mutes: string[];
            /** @description The maintenance window that mutes the alert now; absent when none does. alertform's own extension (additive). */
            maintenance_window?: {
                id: string;
                name: string;
                /** @description ISO 8601: when its occurrence ends. */
                until: string;
            };
        };
        MuteResult: {
            duration: number;
        };
        BulkMuteResult: {
            /** @description The alerts muted. */
            ids: string[];
            duration: number;
        };
        BulkUnmuteResult: {
            /** @description The alerts unmuted. */
            ids: string[];
        };
        HistoryEntry: {
            /**
             * @description query_failed is additive (not in the seed).
             * @enum {string}
             */
            status: "alerting" | "recovered" | "query_failed" | "no_data";
            /** @description A value Graphite returned, never a bucket mean: for `alerting`, the worst point of the window that decided it (the highest for above, the lowest for below, the furthest beyond its bound for outside_bounds); for `recovered`, the series' latest judged point. null for missing-data alerts and query failures. */
            value: number | null;
            /** @description Unix seconds, as a string. */
            time: string;
            metric: string;
        };
        /** @description Keyed by alert id, each list newest first; only alerts with entries appear. */
        History: {
            [key: string]: components["schemas"]["HistoryEntry"][];
        };
        ChannelRead: {
            /** @enum {string} */
            type: "email" | "pagerduty" | "slack" | "webhook" | "victorops" | "opsgenie";
            description: string;
            destination: string;
            id: string;
            auto_resolve: boolean;
            /** @description alertform extension (noise control): the throttle, null when none. The hosted service does not return it. */
            throttle: components["schemas"]["channel.throttle"];
            /** @description alertform extension (noise control): grouping by path nodes, null when none. The hosted service does not return it. */
            group_by: components["schemas"]["channel.groupBy"];
            /** @description Additive, read-only: the last delivery error, present only while the last delivery failed. */
            last_error?: {
                /** @description Unix seconds, as a string. */
                time: string;
                message: string;
            };
            /** @description Additive, read-only: notifications waiting in the outbox (absent when none). */
            pending_deliveries?: number;
            /** @description Additive, read-only: the age of the oldest waiting notification. */
            oldest_pending_seconds?: number;
            /** @description Extension (alertform): the channel's message template; null: the default message. */
            template: components["schemas"]["channel.template"];
        };
        ChannelPage: {
            notifications: components["schemas"]["ChannelRead"][];
            /** @description Whether a further page has items. */
            next_page: boolean;
        };
        DeliveryRead: {
            /** @description Stable across retries: the webhook body id and Idempotency-Key. */
            id: string;
            /**
             * @description held: a channel throttle held it back for its window summary (next_attempt_at: when that is due); summarized: listed in a sent `throttled_summary` (noise control, an extension).
             * @enum {string}
             */
            state: "pending" | "delivered" | "dead" | "held" | "summarized";
            channel: {
                id: string;
                type: string;
                description: string;
            };
            alert: {
                id: string;
                name: string;
            };
            /**
             * @description `test`: a channel test (POST /v2/notifications/{id}/test/), whose alert id is "". `flapping`: the flap guard paused an alert's notifications; `throttled_summary`: what a channel throttle held in a window (alert id ""); `grouped`: one message for a group of a channel with group_by (alert id "").
             * @enum {string}
             */
            event: "alerting" | "reminder" | "recovered" | "query_failed" | "query_recovered" | "flapping" | "throttled_summary" | "grouped" | "test";
            attempts: number;
            /** @description Unix seconds, as a string. */
            created_at: string;
            /** @description Unix seconds; null once delivered or dead. */
            next_attempt_at: string | null;
            /** @description Unix seconds; null before the first attempt. */
            last_attempt_at: string | null;
            /** @description Why the last attempt failed: service and class, never the destination. */
            last_error: string | null;
        };
        DeliveryPage: {
            deliveries: components["schemas"]["DeliveryRead"][];
            /** @description Whether a further page has items. */
            next_page: boolean;
        };
        ScheduleRead: {
            id: string;
            name: string;
            start_time: string;
            duration: number;
            /** @description Normalised: "UTC", "UTC+2", "UTC-5:30". */
            timezone: string;
            repeat: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
            /** @description Ids of the alerts that use it (read-only). */
            alerts: string[];
        };
        SchedulePage: {
            scheduled_mutes: components["schemas"]["ScheduleRead"][];
            /** @description As the public docs give it: the next page number, or false on the last page. */
            next_page: number | false;
        };
        Health: {
            /** @constant */
            status: "ok";
        };
        EvaluationHealth: {
            /** @enum {string} */
            status: "healthy" | "queries_failing" | "graphite_failing" | "cycle_failed" | "stalled" | "starting" | "not_evaluating";
            /** @description healthy or queries_failing (some alerts read query_failing; evaluation still works). */
            healthy: boolean;
            /** @description This process's last evaluation cycle that ended: ended_at (unix seconds), alerts, queries, failed_queries, deferred_alerts (left out while their account's maintenance windows are first matched). */
            last_cycle: Record<string, never> | null;
            detail: string;
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "not ready";
            /** @description database, migrations, each background service (the evaluator), and `email` on a server without an SMTP server (ready, with a warning). */
            checks: {
                name: string;
                ready: boolean;
                /** @description What failed (never a credential). */
                detail?: string;
                /** @description Ready, but something will not work as configured, e.g. email channels on a server without --smtp-url (`plan` shows it). */
                warning?: string;
            }[];
        };
        AlertGraph: {
            /** @description Unix seconds. */
            from: number;
            /** @description Unix seconds. */
            until: number;
            criteria: {
                /** @description `alert_criteria`, or the additional_criteria key. */
                name: string;
                metric: string;
                /** @enum {string} */
                type: "above" | "below" | "outside_bounds" | "missing";
                /** @description below_value and/or above_value; none for missing. */
                thresholds: number[];
                /** @description At most 50 series per criterion, each at most 720 points (Graphite consolidates). */
                series: {
                    target: string;
                    points: [
                        number,
                        number | null
                    ][];
                }[];
            }[];
            alerting: {
                /** @description Unix seconds. */
                from: number;
                /** @description Null while still alerting. */
                until: number | null;
            }[];
            /** @description The alert's settle delay in effect (its settle_seconds, or the server's --settle-delay): data of the last this many seconds (and the 30 s bucket reaching into them) is not judged yet. The console shades it. */
            settle_seconds: number;
            /** @description Why series are missing: no Graphite configured, a failed query, a query outside the account’s metric prefixes, series cut to 50. */
            error: string | null;
        };
        AlertBacktest: {
            window_seconds: number;
            /** @description Times it would have gone from healthy to alerting. */
            fired: number;
            minutes_alerting: number;
            longest_episode_seconds: number;
            episodes: {
                /** @description Unix seconds. */
                from: number;
                /** @description Null: still alerting at the end of the window. */
                until: number | null;
            }[];
            notifications: {
                channel_id: string;
                count: number;
            }[];
            /** @description Why there are no figures: no Graphite, a failed query, a query outside the metric prefixes. */
            error: string | null;
            /** @description Why the figures are partial: a criterion matched more than 50 series and only the first 50 were replayed (`alert_criteria: replayed 50 of 200 series`). */
            note: string | null;
        };
        AlertDefinition: {
            /** @description alerts.yaml as alertform pull writes it, with this alert only. */
            yaml: string;
            /** @description Written by alertform's apply (header X-Alertform-Managed: git): a change made elsewhere shows as drift in the next plan. */
            managed_from_git: boolean;
        };
        DeliveryAnswer: {
            delivery: components["schemas"]["DeliveryRead"];
        };
        AlertTimeline: {
            entries: {
                /** @description Unix seconds. */
                time: number;
                /** @enum {string} */
                kind: "alerting" | "recovered" | "query_failed" | "no_data" | "muted" | "unmuted" | "notification_sent" | "notification_suppressed" | "notification_failed" | "held" | "grouped" | "acknowledged" | "unacknowledged" | "muted_by_window" | "window_changed";
                metric: string | null;
                value: number | null;
                channel: null | {
                    id: string;
                    type: string;
                    description: string;
                };
                /** @description For notifications: the event (sent) or `event: why` (suppressed: muted, backoff, on_query_failure...); for mutes: until when; for acknowledged: `by WHO[ until TIME][: note]`; for unacknowledged: `withdrawn by WHO`, `expired` or `recovered`; for held: `depends on PARENT, which is alerting`; for grouped: which grouped message carried it. */
                reason: string | null;
                /** @description For muted and unmuted: who (the `by` given, or `api`). */
                by: string | null;
            }[];
        };
        AlertOverview: {
            /** @description How many of the account's alerts are in each state (all of them, whatever the filter); `muted` counts the muted ones, whatever their state. */
            counts: {
                total: number;
                alerting: number;
                query_failing: number;
                no_data: number;
                not_evaluated: number;
                healthy: number;
                muted: number;
            };
            /** @description How many alerts match state and search. */
            matching: number;
            page: number;
            max: number;
            next_page: boolean;
            alerts: {
                id: string;
                name: string;
                metric: string;
                /**
                 * @description The alert's state, the same as its read object's `state` (muted is the `muted` flag beside it).
                 * @enum {string}
                 */
                state: "alerting" | "query_failing" | "no_data" | "not_evaluated" | "healthy";
                /** @description The evaluator's status (alerting or healthy), muted or not. */
                status: string;
                muted: boolean;
                /** @description Unix seconds: the end of the hand mute or of the active scheduled mute, whichever is later. */
                muted_until: number | null;
                query_failing: boolean;
                /** @description Unix seconds since the alert is in its evaluator condition, from its history (90 days); null when the history does not say. */
                since: number | null;
                currently_triggered_metrics: string[];
                channels: {
                    id: string;
                    type: string;
                    description: string;
                }[];
                /** @description Who acknowledged the current alerting episode (POST /v2/alerts/{id}/ack/): no reminders or escalations while it holds. Ends when the alert recovers, when `until` passes, or when withdrawn; null when none. Read-only; alertform's own extension (additive; Hosted Graphite has no such endpoint). */
                acknowledgement: null | {
                    /** @description Who acknowledged (a person, as they gave their name). */
                    by: string;
                    note: string | null;
                    /** @description Unix seconds. */
                    at: number;
                    /** @description Unix seconds at which it ends by itself; null: when the alert recovers. */
                    until: number | null;
                };
            }[];
        };
        AlertScheduledMutes: {
            scheduled_mutes: (components["schemas"]["ScheduleRead"] & {
                /** @description Whether it mutes the alert now. */
                active: boolean;
                /** @description The current window, or the next one; null once a one-time mute has passed. */
                window: null | {
                    /** @description Unix seconds. */
                    from: number;
                    /** @description Unix seconds. */
                    until: number;
                };
            })[];
        };
        AckLinkAnswer: {
            id: string;
            name: string;
            /** @description Who acknowledged the current alerting episode (POST /v2/alerts/{id}/ack/): no reminders or escalations while it holds. Ends when the alert recovers, when `until` passes, or when withdrawn; null when none. Read-only; alertform's own extension (additive; Hosted Graphite has no such endpoint). */
            acknowledgement: null | {
                /** @description Who acknowledged (a person, as they gave their name). */
                by: string;
                note: string | null;
                /** @description Unix seconds. */
                at: number;
                /** @description Unix seconds at which it ends by itself; null: when the alert recovers. */
                until: number | null;
            };
        };
        /**
         * Webhook notification body
         * @description The JSON body alertform serve POSTs to a webhook channel. The first eight properties are the Hosted Graphite shape; the others are additive. New properties may be added; none is removed or changes meaning. Headers: Content-Type application/json, User-Agent alertform/<version>, Idempotency-Key (the delivery id), X-Alertform-Signature (sha256=<hex HMAC-SHA256 of the exact body with the channel's signing secret>).
         */
        WebhookPayload: {
            /** @description The delivery's id: new for every notification, the same on every retry of it (also the Idempotency-Key header). Drop a repeat by it. */
            id?: string;
            /** @description The alert's name (renamable: pair notifications by alert_id). */
            name: string;
            /** @description The criteria in words: `above 90 for 5 minutes`; for a group's message what it groups (`group dc1 of ops: 25 notifications`), for a throttle's summary what it held. */
            criteria: string;
            /**
             * Format: uri
             * @description A signed, expiring link to the server's PNG of the alert's graph; null without --public-url, and for a group's message or a throttle's summary (neither is an alert with a graph).
             */
            graph: string | null;
            /** @description The first triggered metric's value (a group's message: its first member's). */
            value: number | null;
            /** @description The first triggered metric, or the alert's metric (a group's message: its first member's series). */
            metric: string;
            /**
             * @description The Hosted Graphite status word (reminders and escalations say alerting). Prefer `event`.
             * @enum {unknown}
             */
            status: "alerting" | "recovered" | "query_failed" | "query_recovered" | "acknowledged" | "flapping" | "throttled_summary" | "no_data" | "grouped";
            /** @description N of notification_type ["every", N]; null for state_change. */
            backoff_minutes: number | null;
            info: string | null;
            /** @description The alert's own id: the same on every notification of the alert, whatever it is renamed to. A group's message carries the group's own id, `group:KEY` (the same on its alerting and its recovery messages); a throttle's summary `throttle-<channel>-<window start>`. Null for a channel test. */
            alert_id: string | null;
            /**
             * @description What happened: alerting (an episode began), reminder (still alerting), escalation (an escalation step), recovered (the episode ended), acknowledged, no_data / no_data_recovered (the queries answer no data / data again), query_failed / query_recovered (the alert's queries fail / work again), flapping (notifications paused), throttled (what a channel's throttle held back in a window, in `throttled`, recoveries of held alerts included), grouped (one message for one group of a channel with group_by, in `grouped`).
             * @enum {unknown}
             */
            event: "alerting" | "reminder" | "escalation" | "recovered" | "acknowledged" | "no_data" | "no_data_recovered" | "query_failed" | "query_recovered" | "flapping" | "throttled" | "grouped";
            /** @description Unix seconds: when the episode this is about began (the alerting episode; the failure of query_failed). Null when unknown or not about an episode. */
            started_at: number | null;
            /** @description Unix seconds: when the episode ended (recovered, query_recovered, no_data_recovered); null while it is open. */
            ended_at: number | null;
            thresholds: components["schemas"]["WebhookPayload.thresholds"];
            /** @description The metrics the notification is about (breaching, recovered, or failing), sorted by metric name. */
            triggered_metrics: components["schemas"]["WebhookPayload.triggeredMetric"][];
            /** @description Composite alerts: the expression over the condition letters. */
            expression?: string;
            /** @description Composite alerts: each condition by its letter. */
            conditions?: {
                [key: string]: {
                    metric: string;
                    criteria: string;
                    /** @enum {unknown} */
                    state: "holds" | "clear" | "unknown";
                    triggered_metrics: components["schemas"]["WebhookPayload.triggeredMetric"][];
                    thresholds: components["schemas"]["WebhookPayload.thresholds"];
                };
            };
            /**
             * @description A test of the channel: no alert is firing.
             * @constant
             */
            test?: true;
            escalation?: {
                step: number;
                of: number;
                after_minutes: number;
            };
            flapping?: {
                changes: number;
                window_minutes: number;
            };
            /** @description grouped: one group of a channel with group_by (the triggered series' path nodes, `group_key`): how many notifications, the first 10 named (times in unix seconds). */
            grouped?: {
                channel: string;
                group_key: string;
                /** @description `group:KEY`, also the body's alert_id: pairs a group's recovery with its page. */
                group_id: string;
                /** @description The channel's group_by nodes the key is made of. */
                nodes: number[];
                count: number;
                members: {
                    alert_id: string;
                    alert_name: string;
                    series: string;
                    event: string;
                    value: number | null;
                    time: number;
                }[];
            };
            /** @description throttled: what the channel's throttle held back in the window that ended, in the order it happened, recoveries of held alerts included (times in unix seconds). */
            throttled?: {
                channel: string;
                max_notifications: number;
                window_minutes: number;
                window_start: number;
                window_end: number;
                held_count: number;
                held: {
                    alert_id: string;
                    alert_name: string;
                    event: string;
                    metric: string;
                    value: number | null;
                    time: number;
                }[];
            };
            /**
             * Format: uri
             * @description The alert's page in the console (with --public-url); for a group's message the console's overview grouped by its nodes and searched for its key, for a throttle's summary the deliveries page.
             */
            console_url?: string;
            /**
             * Format: uri
             * @description A signed one-click acknowledgement link (alerting, reminder, escalation; with --public-url).
             */
            ack_url?: string;
            acknowledgement?: {
                by: string;
                note: string | null;
                at: number;
                until: number | null;
            };
            /** @description A channel with a template: its rendered title. */
            title?: string;
            /** @description A channel with a template: its rendered message (plain text). */
            body?: string;
        };
        /** @description The criteria's thresholds as numbers; null where the criteria type has none. */
        "WebhookPayload.thresholds": {
            above: number | null;
            below: number | null;
        };
        "WebhookPayload.triggeredMetric": {
            metric: string;
            value: number | null;
        };
        ChannelSigningSecret: {
            id: string;
            /** @description The channel's current secret: the key of the HMAC-SHA256 in Alertform-Signature's first v1 and in X-Alertform-Signature. Keep it as a secret. */
            signing_secret: string;
            /**
             * @description The body-only signature header (kept for receivers that verify it; it cannot refuse a replay).
             * @constant
             */
            header: "X-Alertform-Signature";
            /** @constant */
            algorithm: "HMAC-SHA256";
            /**
             * @description The header to verify: a signed timestamp, so a receiver can refuse replays.
             * @constant
             */
            timestamped_header: "Alertform-Signature";
            /** @description How the timestamped header reads. */
            timestamped_format: string;
            /** @description The tolerance window the documentation advises for `t`, either way of the receiver's clock. */
            tolerance_seconds: number;
            /** @description While a rotation lasts: the secret before, which still signs (a second v1=); null otherwise. */
            previous_signing_secret: string | null;
            /** @description When the previous secret stops signing (ISO 8601); null when none. */
            previous_expires_at: string | null;
        };
        MaintenanceWindowWrite: {
            /** @description Unique in the account. */
            name: string;
            /** @description Why; shown in the history of the alerts it changes. */
            reason?: string | null;
            /** @description What the window mutes: an alert matches when it matches any pattern of every key given. */
            match: {
                /** @description Globs on the alert name: `*` any run of characters, `?` one character. */
                alert_names?: string[];
                /** @description Graphite globs (`*`, `?`, `[...]`, `{a,b}`, never across a dot) on the metric paths the alert reads: its metric's and its additional criteria's, each path whole. */
                metrics?: string[];
                /** @description Notification channels, by id or name (description) in a write; ids in a read. */
                channels?: string[];
            };
            /** @description ISO 8601 with an offset: a one-off window from this instant. Exactly one of starts_at, or start_time with repeat. */
            starts_at?: string | null;
            /** @description HH:MM in `timezone`: a recurring window starts then on each day of `repeat`. */
            start_time?: string | null;
            repeat?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[] | null;
            /**
             * @description UTC, an offset (UTC+2, UTC-5:30) or an IANA name (Europe/Berlin).
             * @default UTC
             */
            timezone: string;
            /** @description Minutes. */
            duration: number;
        };
        /** @description The fields to change (the others keep their values; null clears one); id, created_by and updated_by are accepted and ignored. */
        MaintenanceWindowUpdate: {
            name?: string;
            reason?: string | null;
            /** @description What the window mutes: an alert matches when it matches any pattern of every key given. */
            match?: {
                /** @description Globs on the alert name: `*` any run of characters, `?` one character. */
                alert_names?: string[];
                /** @description Graphite globs (`*`, `?`, `[...]`, `{a,b}`, never across a dot) on the metric paths the alert reads: its metric's and its additional criteria's, each path whole. */
                metrics?: string[];
                /** @description Notification channels, by id or name (description) in a write; ids in a read. */
                channels?: string[];
            };
            /** @description ISO 8601 with an offset: a one-off window from this instant. Exactly one of starts_at, or start_time with repeat. */
            starts_at?: string | null;
            /** @description HH:MM in `timezone`: a recurring window starts then on each day of `repeat`. */
            start_time?: string | null;
            repeat?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[] | null;
            /**
             * @description UTC, an offset (UTC+2, UTC-5:30) or an IANA name (Europe/Berlin).
             * @default UTC
             */
            timezone: string;
            /** @description Minutes. */
            duration?: number;
            /** @description Read-only: the occurrence that mutes now (active) or the next one, by the window's own clock (daylight saving followed); null when there is none (a one-off window that is over). Accepted and ignored by PUT. */
            next_occurrence?: {
                /** Format: date-time */
                starts_at: string;
                /** Format: date-time */
                ends_at: string;
                active: boolean;
            } | null;
        };
        /** @description A window as it is being written: only `match` is read. */
        MaintenanceWindowPreviewRequest: {
            /** @description What the window mutes: an alert matches when it matches any pattern of every key given. */
            match: {
                /** @description Globs on the alert name: `*` any run of characters, `?` one character. */
                alert_names?: string[];
                /** @description Graphite globs (`*`, `?`, `[...]`, `{a,b}`, never across a dot) on the metric paths the alert reads: its metric's and its additional criteria's, each path whole. */
                metrics?: string[];
                /** @description Notification channels, by id or name (description) in a write; ids in a read. */
                channels?: string[];
            };
        };
        MaintenanceWindowRead: {
            id: string;
            name: string;
            reason: string | null;
            /** @description What the window mutes: an alert matches when it matches any pattern of every key given. */
            match: {
                /** @description Globs on the alert name: `*` any run of characters, `?` one character. */
                alert_names?: string[];
                /** @description Graphite globs (`*`, `?`, `[...]`, `{a,b}`, never across a dot) on the metric paths the alert reads: its metric's and its additional criteria's, each path whole. */
                metrics?: string[];
                /** @description Notification channels, by id or name (description) in a write; ids in a read. */
                channels?: string[];
            };
            /** @description ISO 8601 with an offset: a one-off window from this instant. Exactly one of starts_at, or start_time with repeat. */
            starts_at: string | null;
            /** @description HH:MM in `timezone`: a recurring window starts then on each day of `repeat`. */
            start_time: string | null;
            repeat: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[] | null;
            /**
             * @description UTC, an offset (UTC+2, UTC-5:30) or an IANA name (Europe/Berlin).
             * @default UTC
             */
            timezone: string;
            /** @description Minutes. */
            duration: number;
            /** @description Who created it: the API key's name, or "api". */
            created_by: string;
            /** @description Who wrote it last. */
            updated_by: string;
            /** @description Read-only: the occurrence that mutes now (active) or the next one, by the window's own clock (daylight saving followed); null when there is none (a one-off window that is over). Accepted and ignored by PUT. */
            next_occurrence: {
                /** Format: date-time */
                starts_at: string;
                /** Format: date-time */
                ends_at: string;
                active: boolean;
            } | null;
        };
        MaintenanceWindowPage: {
            maintenance_windows: components["schemas"]["MaintenanceWindowRead"][];
            /** @description The next page number, or false on the last page. */
            next_page: number | false;
        };
        AlertOverviewGroups: {
            nodes: number[];
            states: string[];
            /** @description How many groups there are (the answer lists the first 500). */
            group_count: number;
            groups: {
                /** @description The path nodes, joined by ".". */
                key: string;
                counts: {
                    total: number;
                    alerting: number;
                    query_failing: number;
                    no_data: number;
                    not_evaluated: number;
                    healthy: number;
                    muted: number;
                };
            }[];
        };
        MaintenanceWindowPreview: {
            /** @description The first 100 alerts it matches, oldest first. */
            alerts: {
                id: string;
                name: string;
            }[];
            /** @description How many alerts of the account it matches. */
            count: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Not ready: the checks say which failed. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getEvaluationHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluationHealth"];
                };
            };
            /** @description Evaluation does not work: the status says why. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluationHealth"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description serve has --metrics-token and the request did not carry it (unauthorized). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    searchAlerts: {
        parameters: {
            query?: {
                /** @description Alert name (repeatable, OR-ed with id). */
                name?: string[];
                /** @description Alert id (repeatable, OR-ed with name). */
                id?: string[];
                /** @description Case-insensitive substring of the name, the metric, an additional criterion's metric or a channel description; AND-ed with the rest. */
                search?: string;
                /** @description Page number, from 1 (default 1). */
                page?: number;
                /** @description Page size, 1..100 (default 100). */
                max?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertPage"];
                };
            };
            /** @description Invalid query (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAlert: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["alert.create"];
            };
        };
        responses: {
            /** @description Success. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Created"];
                };
            };
            /** @description Invalid body (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account holds as many as the operator allows (quota_exceeded). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name exists (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRead"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["alert.update"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRead"];
                };
            };
            /** @description Invalid body, or an id that is not this one (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name exists (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description No such alert (not_found; 400 as the reference documents). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertMuteStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MuteStatus"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    muteAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["alert.mute"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MuteResult"];
                };
            };
            /** @description Invalid body (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unmuteAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["alert.unmute"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MuteStatus"];
                };
            };
            /** @description Invalid body (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    muteAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["alert.bulkMute"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkMuteResult"];
                };
            };
            /** @description Invalid body (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An id does not exist (not_found); nothing changed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unmuteAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["alert.bulkUnmute"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkUnmuteResult"];
                };
            };
            /** @description Invalid body (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An id does not exist (not_found); nothing changed. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertHistory: {
        parameters: {
            query?: {
                /** @description Alert id (repeatable; all alerts when absent). */
                id?: string[];
                /** @description Alias of `id`, as the reference text also spells it (repeatable). */
                alert_id?: string[];
                /** @description Days back, 1..90 (default 3). */
                days?: number;
                /** @description Only entries of this status. */
                status?: "alerting" | "recovered" | "query_failed" | "no_data";
                /** @description Only entries of exactly this value. */
                value?: number;
                /** @description Only entries at or after this unix time (seconds). */
                time?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["History"];
                };
            };
            /** @description Invalid query, or an id that is not one of this account's alerts (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchChannels: {
        parameters: {
            query?: {
                /** @description Channel type (repeatable). */
                type?: ("email" | "pagerduty" | "slack" | "webhook" | "victorops" | "opsgenie")[];
                /** @description Description (repeatable). */
                description?: string[];
                /** @description Alias of `description`, as the reference text spells it (repeatable). */
                descriptions?: string[];
                /** @description Channel id (repeatable). */
                id?: string[];
                /** @description true or false (also True/False, 1/0). */
                auto_resolve?: "true" | "false" | "True" | "False" | "1" | "0";
                /** @description Page number, from 1 (default 1). */
                page?: number;
                /** @description Page size, 1..100 (default 100). */
                max?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelPage"];
                };
            };
            /** @description Invalid query (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createChannel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["channel.create"];
            };
        };
        responses: {
            /** @description Success. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Created"];
                };
            };
            /** @description Body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account holds as many as the operator allows (quota_exceeded). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid body (invalid_body; 404 as the reference documents). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Description exists (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelRead"];
                };
            };
            /** @description No such channel (not_found; 400 as the reference documents). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["channel.update"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelRead"];
                };
            };
            /** @description Invalid body, or an id that is not this one (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Description exists (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelDeleted"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChannelSigningSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelSigningSecret"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateChannelSigningSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description How long the replaced secret still signs.
                     * @default 86400
                     */
                    previous_valid_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChannelSigningSecret"];
                };
            };
            /** @description Invalid body (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /** @description pending, dead, delivered, or (noise control) held and summarized: what a channel throttle held back (repeatable; default pending and dead). */
                state?: ("pending" | "dead" | "delivered" | "held" | "summarized")[];
                /** @description Only this alert's deliveries (an alertform extension for the console; another account's alert is 404). */
                alert_id?: string;
                /** @description Page number, from 1 (default 1). */
                page?: number;
                /** @description Page size, 1..100 (default 100). */
                max?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryPage"];
                };
            };
            /** @description Invalid query (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Alert_id names no alert of this account (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchSchedules: {
        parameters: {
            query?: {
                /** @description Name (repeatable). */
                name?: string[];
                /** @description Id (repeatable). */
                id?: string[];
                /** @description Duration in minutes (repeatable). */
                duration?: number[];
                /** @description Start time HH:MM (repeatable). */
                start_time?: string[];
                /** @description Timezone, any spelling of the offset (repeatable; an unencoded + is read as +). */
                timezone?: string[];
                /** @description A week day the schedule repeats on (repeatable). */
                repeat?: ("mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun")[];
                /** @description Page number, from 1 (default 1). */
                page?: number;
                /** @description Page size, 1..100 (default 100). */
                max?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulePage"];
                };
            };
            /** @description Invalid query (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["schedule.create"];
            };
        };
        responses: {
            /** @description Success. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Created"];
                };
            };
            /** @description Invalid body (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account holds as many as the operator allows (quota_exceeded). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name exists (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description schedule id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleRead"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such scheduled mute (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description schedule id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["schedule.update"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleRead"];
                };
            };
            /** @description Invalid body, or an id that is not this one (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such scheduled mute (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name exists (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description schedule id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such scheduled mute (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertGraph: {
        parameters: {
            query?: {
                /** @description 6h, 24h or 7d (default 6h). */
                range?: "6h" | "24h" | "7d";
            };
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertGraph"];
                };
            };
            /** @description Invalid range (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertTimeline: {
        parameters: {
            query?: {
                /** @description Days back, 1..90 (default 7). At most 1,000 entries. */
                days?: number;
            };
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertTimeline"];
                };
            };
            /** @description Invalid days (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertBacktest: {
        parameters: {
            query?: {
                /** @description A duration from 1h to 14d, as plan --impact spells it (default 7d). */
                window?: string;
            };
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertBacktest"];
                };
            };
            /** @description Invalid window (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account already runs 2 backtests, its limit; see Retry-After (rate_limited); too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertDefinition: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertDefinition"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGraphPicture: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token of the link. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An 800×300 PNG: the series, the thresholds in red, the alerting periods shaded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description The token does not verify, or its alert is gone (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link has expired (not_found). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials (wrong keys, forged tokens) from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description delivery id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAnswer"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such delivery, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The delivery is not dead-lettered (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testChannel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description channel id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAnswer"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such channel, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description More than 5 tests of this channel in 10 minutes, or 20 of this account in an hour, on this server process; see Retry-After (rate_limited); too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertOverview: {
        parameters: {
            query?: {
                /** @description Only alerts in these states (repeatable). */
                state?: "alerting" | "query_failing" | "no_data" | "not_evaluated" | "healthy" | "muted";
                /** @description Case-insensitive substring of the name or the metric. */
                search?: string;
                /** @description name, metric or state (default, alerting first); a leading - sorts descending. */
                sort?: "name" | "metric" | "state" | "-name" | "-metric" | "-state";
                /** @description Page number, from 1 (default 1). */
                page?: number;
                /** @description Page size, 1..500 (default 50). */
                max?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertOverview"];
                };
            };
            /** @description Invalid query: an unknown parameter or value (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertScheduledMutes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertScheduledMutes"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acknowledgeAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["alert.ack"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRead"];
                };
            };
            /** @description Invalid body, or an until in the past or more than 30 days away (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The alert is not alerting (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The alert's acknowledgement changed 10 times in the last 10 minutes (acknowledged or withdrawn, by any means); see Retry-After (rate_limited); too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    withdrawAcknowledgement: {
        parameters: {
            query?: {
                /** @description Who withdraws it (for the history). */
                by?: string;
            };
            header?: never;
            path: {
                /** @description alert id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertRead"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such alert, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The alert is not acknowledged (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The alert's acknowledgement changed 10 times in the last 10 minutes; see Retry-After (rate_limited); too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    showAckLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token of the link. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page: the alert and a form. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The token does not verify, or its alert is gone (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link is from an earlier alerting episode, or the alert is not alerting any more (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link has expired (not_found). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials (wrong keys, forged tokens) from this address, or the alert's acknowledgement changed 10 times in the last 10 minutes; see Retry-After (rate_limited). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acknowledgeByLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The signed token of the link. */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    by: string;
                    note?: string;
                };
                "application/json": components["schemas"]["alert.ack"];
            };
        };
        responses: {
            /** @description Acknowledged. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["AckLinkAnswer"];
                };
            };
            /** @description No name, or a note too long (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The token does not verify, or its alert is gone (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link is from an earlier alerting episode, the alert is not alerting any more, or it is already acknowledged (conflict): the first acknowledgement through a link stands, and the answer names it (JSON: `details` `acknowledgement.by` and `acknowledgement.at`, an ISO time). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The link has expired (not_found). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed credentials (wrong keys, forged tokens) from this address, or the alert's acknowledgement changed 10 times in the last 10 minutes; see Retry-After (rate_limited). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMaintenanceWindows: {
        parameters: {
            query?: {
                /** @description A case-insensitive part of the name or the reason. */
                search?: string;
                /** @description Page number, from 1 (default 1). */
                page?: number;
                /** @description Windows per page, 1 to 100 (default 100). */
                max?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindowPage"];
                };
            };
            /** @description Invalid query (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaintenanceWindowWrite"];
            };
        };
        responses: {
            /** @description Success. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindowRead"];
                };
            };
            /** @description Invalid body: a field at fault, more than 20 patterns in a key or a pattern longer than 200, an unknown channel (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account holds 200 windows, the most it may (quota_exceeded). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name exists (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    previewMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaintenanceWindowPreviewRequest"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindowPreview"];
                };
            };
            /** @description Invalid body: a field at fault, more than 20 patterns in a key or a pattern longer than 200, an unknown channel (invalid_body); body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description window id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindowRead"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such maintenance window, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description window id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MaintenanceWindowUpdate"];
            };
        };
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MaintenanceWindowRead"];
                };
            };
            /** @description Invalid body: a field at fault, more than 20 patterns in a key or a pattern longer than 200, an unknown channel (invalid_body); or an id that is not this one; body not JSON or not a JSON object (invalid_body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such maintenance window, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name exists (conflict). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body larger than 1 MiB (payload_too_large). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMaintenanceWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description window id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such maintenance window, or another account's (not_found). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAlertOverviewGroups: {
        parameters: {
            query?: {
                /** @description Path node indexes, 0-based (repeatable, or comma-separated: nodes=1,2). */
                nodes?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertOverviewGroups"];
                };
            };
            /** @description Invalid query: no nodes, more than 5, or an index outside 0..31 (invalid_query). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or unknown API key (unauthorized). */
            401: {
                headers: {
                    /** @description Basic realm="alertform" */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed authentications from this address; see Retry-After (rate_limited). */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure, logged by the server (internal). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    webhookNotification: {
        parameters: {
            query?: never;
            header: {
                /** @description `alertform/<version>`. */
                "User-Agent": string;
                /** @description The delivery id (the body's `id`), the same on every retry. */
                "Idempotency-Key"?: string;
                /** @description `t=<unix seconds of this attempt>,v1=<hex HMAC-SHA256 of "<t>.<exact body bytes>">`, keyed with the channel's secret (GET /v2/notifications/{id}/signing-secret/); while a rotation lasts a second `v1=` under the previous secret. Accept when any v1 matches and t is within your tolerance window. */
                "Alertform-Signature": string;
                /** @description `sha256=` and the hex HMAC-SHA256 of the exact body bytes, keyed with the channel's current secret: the body-only form, kept for receivers written for it (no timestamp: it cannot refuse a replay). */
                "X-Alertform-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            /** @description Received: the delivery is done. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Refused: dead-lettered at once, except 408 and 429, which are retried. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Failed: retried with backoff. */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
