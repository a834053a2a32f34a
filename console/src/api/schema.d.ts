// Generated from the OpenAPI document by console/scripts/apiTypes.mjs; do not edit.

export interface paths {
    "/api/v1/auth/bootstrap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start the application shell: refresh plus shell data
         * @description Rotates the cookie exactly like refresh and returns the token response plus the shell sections that exist. Never cacheable. A present Origin outside the allowlist is 403 with `details.allowed_origin` (the console says which address to open).
         */
        post: operations["bootstrap"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/invite/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation and sign in
         * @description A new user must set `password` (complexity rule). An existing user needs no password (if one is sent it must be theirs, else 401) but must give `mfa_code` when MFA is on (else 200 MFARequiredResponse; a wrong code is 401). An unknown or withdrawn token is 404; a used or expired one is 422 (details.field=token).
         */
        post: operations["acceptInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/invite/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What an invitation is for, shown to the holder of its token
         * @description No access token: the emailed token is the proof, and only its holder learns the organization, the role and who invited them. An unknown or withdrawn token is 404; a used or expired one is 422 (details.field=token), as for accepting.
         */
        post: operations["lookupInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with email and password (and a second factor when enabled)
         * @description A wrong email and a wrong password give the same 401 and take the same time. With MFA enabled and no `mfa_code` the answer is 200 MFARequiredResponse. `org_id` picks the organization (403 unless an active member); without it, the organization joined first.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the session of the refresh cookie and clear it
         * @description Always 204 with the cookie cleared, also without a cookie or with an unknown one. A present Origin outside the allowlist is 403.
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where the identity provider sends the browser back; signs in and redirects to the web app
         * @description Consumes the state atomically (a second use fails), exchanges the code with the PKCE verifier, and validates issuer, audience, signature (only RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, Ed25519), expiry, nonce, email_verified, the exact domain policy and membership (just-in-time when enabled). Success: 303 to the configured web-app callback (`oidc.callback_url`) with only the refresh cookie set and no token in the URL; the app then calls /auth/refresh. Every failure, including a missing state or code and an error sent by the provider, is 401 `unauthorized`; the reason is in the server log and the audit log only.
         */
        get: operations["oidcCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/oidc/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin single sign-on: the authorization URL of the organization's identity provider
         * @description Resolves exactly one organization with enabled single sign-on: from the email's exact domain (no subdomain matching) or from `org_id`. Neither given, or both given but naming different organizations: 422. None found: 404. Stores a one-time state, nonce and S256 PKCE verifier (the verifier encrypted) valid ten minutes; the answer holds no credential. Spends from the sign-in rate-limit group.
         */
        post: operations["oidcStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the sign-in pages may offer on this server
         * @description Public. `registration`: `open` (anyone may create an account: signup_mode legacy, or closed on a server with no account yet), `invitation_only` (signup_mode closed once the first account exists) or `trial_first` (cloud). `password_reset_email`: whether a forgotten password can be reset by email (SMTP is configured); without it an administrator issues a link with `ppctl admin reset-password --link`.
         */
        get: operations["signInOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password/forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Email a one-hour password reset link
         * @description 204 whether or not the account exists, in the same time. A new request invalidates earlier unused links.
         */
        post: operations["forgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with an emailed link token
         * @description Revokes every session and refresh token of the user. An unknown, used or expired token is 422 with message `invalid or expired token`.
         */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New access token from the refresh cookie; the cookie is rotated
         * @description Reads only the `pp_rt` cookie. An invalid, expired or ended token is 401 with the cookie cleared; a token that was already rotated also revokes every session of its user. A present Origin outside the allowlist is 403 with `details.allowed_origin`, the origin of the base URL (where the console keeps its sign-in).
         */
        post: operations["refresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account, its organization and a first project (legacy signup mode), or begin a trial-first signup
         * @description Password rule: at least 8 characters with an uppercase letter, a digit and a punctuation or symbol character. An email already registered is 422 with details.field=email. With signup_mode=closed the answer is 403 `forbidden` once the server has an account (the first account may register). `timezone` (an IANA zone) becomes the first project's zone; invalid values are ignored (UTC). `device_fp` and `utm` are accepted and ignored outside trial-first mode. With signup_mode=trial_first (cloud) nothing is created: the answer is 202 SignupVerificationRequired and a six-digit code and a link, valid 10 minutes, are emailed (see /auth/register/verify); `timezone` then only renders that deadline. A disposable provider domain (or a subdomain of one) is 422 `disposable_email` with details.field=email. `device_fp` (a hash of at most 200 characters) and `utm` (a string map; values cut at 200 characters, at most 10 keys) are kept as signup signals; other shapes are dropped silently.
         */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register/domain-review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a separate organization on a taken company domain, held for manual review
         * @description Only after verify answered 409 `domain_has_org`: creates the account like verify, with a `pending_review` subscription and `org.trial_state=pending_review`. `company_note` (up to 1000 characters) tells the reviewer why. Without a domain conflict the answer is 422 and the signup stays as it was. An unknown address, an expired, used or replaced code or token, a signup with more than 10 wrong codes and a wrong code all give the same 422 (details.field is `code`, or `token` when a token was sent). Outside signup_mode=trial_first the operation is 404.
         */
        post: operations["requestSignupDomainReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register/request-invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the owner of the domain's organization for an invitation instead of signing up
         * @description Only after verify answered 409 `domain_has_org`: emails the owner of the newest organization with a member at the domain and spends the signup; nothing is created. Without a domain conflict the answer is 422 and the signup stays as it was. An unknown address, an expired, used or replaced code or token, a signup with more than 10 wrong codes and a wrong code all give the same 422 (details.field is `code`, or `token` when a token was sent). Outside signup_mode=trial_first the operation is 404.
         */
        post: operations["requestSignupInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a fresh code and link for a pending trial-first signup
         * @description Always 202 with the same body. A pending signup gets a new code and token (the previous ones stop working) unless its latest email is less than 60 seconds old or 10 emails went to the address in the last 24 hours. The 10-minute deadline counts from the first email and is not extended. `timezone` (IANA) only renders the deadline in the email. Outside signup_mode=trial_first the operation is 404.
         */
        post: operations["resendSignupVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prove the address of a trial-first signup and create the account
         * @description Creates the user, an organization they own, a first project and a subscription in one transaction and signs in (201 with `org.trial_state`). A risk-rule hit (a device or address shared with an organization whose trial began less than 90 days ago; a free mail provider plus any shared signal; two or more signups from one address within 24 hours) still signs in, with a `pending_review` subscription and `org.trial_state=sms_required`. A company domain where an organization already has a member is 409 `domain_has_org` with masked hints; the signup stays pending for request-invite or domain-review. An unknown address, an expired, used or replaced code or token, a signup with more than 10 wrong codes and a wrong code all give the same 422 (details.field is `code`, or `token` when a token was sent). Outside signup_mode=trial_first the operation is 404.
         */
        post: operations["verifySignup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/trial/sms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a six-digit code by SMS to activate a trial held by the risk rules
         * @description The number is E.164 (`+`, then 8 to 15 digits, the first not 0); spaces, dashes and parentheses are ignored, anything else is 422 with details.field=phone. A number that already activated another organization is 422 on phone. A fresh code (valid 10 minutes) replaces the previous one. At most one code a minute and five in 24 hours per organization: 429 `rate_limited` with Retry-After. Needs the access token of an owner or admin (else 403) of an organization whose subscription is `pending_review` with `trial_state=sms_required`; any other state is 409 `conflict` naming it in `details.status` and `details.trial_state`. Spends the sign-in group budgets. Outside the cloud edition the operation is 404.
         */
        post: operations["sendTrialSmsCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/trial/sms/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prove the SMS code: the trial starts
         * @description The right code starts the trial (its full length from now) and spends the number. A wrong, expired or replaced code, and a code after more than 10 wrong ones, give the same 422 (`invalid or expired code`, details.field=code); then a new code must be sent. Needs the access token of an owner or admin (else 403) of an organization whose subscription is `pending_review` with `trial_state=sms_required`; any other state is 409 `conflict` naming it in `details.status` and `details.trial_state`. Spends the sign-in group budgets. Outside the cloud edition the operation is 404.
         */
        post: operations["verifyTrialSmsCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/billing/provider-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The payment provider's callback: moves an organization's subscription (cloud edition)
         * @description No access token: the body is authenticated by `PP-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(billing.webhook_secret, "<t>.<raw body>")>` (several v1 entries allowed; one must match) with t within billing.webhook_tolerance_seconds of now, else 401. Bodies up to 64 KiB, not compressed. Every well-formed, signed event answers 200, whether applied, a duplicate or ignored, so the provider stops retrying. 404 unless edition=cloud and billing.webhook_secret is set. See docs/payments.md.
         */
        post: operations["receiveProviderEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email/resubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive marketing email again, undoing an unsubscribe
         * @description A malformed or forged token, one of another installation and one of a deleted user are the same 422 on `token`. Tokens do not expire. No access token; limited per client address. Outside edition=cloud the operation is 404.
         */
        post: operations["resubscribeEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/email/unsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the user of an unsubscribe token receives marketing email
         * @description A malformed or forged token, one of another installation and one of a deleted user are the same 422 on `token`. Tokens do not expire. No access token; limited per client address. Outside edition=cloud the operation is 404.
         */
        get: operations["emailSubscriptionState"];
        put?: never;
        /**
         * Stop marketing email (trial reminders) to the user of the token
         * @description The token comes in the query (`?token=`, as in the `List-Unsubscribe` header, including the one-click form post `List-Unsubscribe=One-Click` of RFC 8058) or in a JSON body `{token}`. Repeating it is harmless (200 again). A malformed or forged token, one of another installation and one of a deleted user are the same 422 on `token`. Tokens do not expire. No access token; limited per client address. Outside edition=cloud the operation is 404.
         */
        post: operations["unsubscribeEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness (and readiness with ready=1) */
        get: operations["healthApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller: user, current organization and role, all memberships */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the caller's display name
         * @description The name is trimmed; one that is empty or only spaces is 422. Members lists, invitations and saved insights show the new name at once.
         */
        patch: operations["updateMe"];
        trace?: never;
    };
    "/api/v1/me/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your personal API keys in this organization (never their values), newest first */
        get: operations["listPersonalApiKeys"];
        put?: never;
        /**
         * Issue a personal API key; the value is returned once
         * @description Send it as `Authorization: Bearer pp_pk_…` to /api/v1 operations about projects and the organization (not to sign-in, your own account or key operations, nor to ingestion). Scopes: read (queries, events, reports and settings), write (saved insights, dashboards and other changes analysts make), admin (operations needing the admin role). A scope above your role is 403. On every request the key acts with the role you hold then, within its scopes: demoted, it loses rights at once; removed from the organization, it stops.
         */
        post: operations["issuePersonalApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/api-keys/{keyID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of your personal API keys; it answers 401 from the next request. Revoking twice is harmless */
        delete: operations["revokePersonalApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/mfa/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Turn two-factor authentication off with a current code or a recovery code */
        post: operations["disableMfa"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/mfa/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm the pending secret with a current code; returns ten recovery codes, once */
        post: operations["enableMfa"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/mfa/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start two-factor enrolment: a new TOTP secret
         * @description The secret stays pending until /me/mfa/enable confirms a code; calling again replaces a pending secret. 409 when MFA is already on.
         */
        post: operations["setupMfa"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change your password
         * @description Needs the current password; the new one follows the complexity rule and must differ from it. Every other session of the user ends (this one stays), open reset links stop working, and `password_change_required` (GET /me) becomes false. A wrong current password is 422 with details.field=current_password; attempts spend the per-email budget of the sign-in group.
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's live sessions (signed-in devices), newest first */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/sessions/{sessionID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Sign out one of your sessions
         * @description Its access tokens answer 401 from the next request and its refresh token stops working.
         */
        delete: operations["revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename the organization (admin+) */
        patch: operations["updateOrg"];
        trace?: never;
    };
    "/api/v1/orgs/{orgID}/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's subscription and usage (cloud edition; viewer+)
         * @description On-prem, and for an organization without a subscription, 404.
         */
        get: operations["getBilling"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgID}/billing/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Choose a plan (cloud edition; admin+)
         * @description `free` starts the free plan at once (409 while a paid plan is running). A paid plan answers where to pay (`checkout_url`); the payment provider's callback then moves the subscription. 409 when no checkout is configured; 403 `trial_pending_review` while the trial waits for activation. Allowed while the organization is paused (402 elsewhere), since it ends the pause.
         */
        post: operations["choosePlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgID}/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invitations of the organization that were not withdrawn, newest first (admin+) */
        get: operations["listInvites"];
        put?: never;
        /**
         * Invite someone by email (admin+; only an owner invites an owner)
         * @description Emails a link `{base_url}/invite?token=…` valid seven days. An open invitation of the same address is replaced. A current member is 409. When the server sends no mail (no `smtp_url`: messages wait in the outbox), the answer also carries that `link`, for the admin to pass on; otherwise the token is never returned.
         */
        post: operations["createInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgID}/invites/{inviteID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Withdraw an invitation not yet accepted (admin+; an owner invitation only by an owner)
         * @description The link then answers 404.
         */
        delete: operations["revokeInvite"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgID}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members of the organization (admin+) */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgID}/members/{userID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member (admin+; owners only by owners)
         * @description The removed member's next request is 401. Removing the last owner is 409 `last_owner`.
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /**
         * Change a member's role (admin+; owners only by owners)
         * @description Only an owner may change an owner or grant the owner role (else 403). Demoting the last owner is 409 `last_owner`. The new role applies to the member's next request.
         */
        patch: operations["changeMemberRole"];
        trace?: never;
    };
    "/api/v1/orgs/{orgID}/oidc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's identity provider (owner only)
         * @description An organization without a provider answers 200 with `configured: false` (not an error: it is the usual state).
         */
        get: operations["getOidcProvider"];
        /**
         * Create or replace the organization's identity provider (owner only)
         * @description The issuer's discovery document and key set are fetched before anything is saved: unreachable or unusable gives 422 with the reason (details.field=issuer). The provider must offer the code flow, an allow-listed ID token algorithm and client_secret_basic or client_secret_post. An enabled provider cannot list a domain that another organization's enabled provider lists (409, details.domains). The client secret is stored encrypted.
         */
        put: operations["putOidcProvider"];
        post?: never;
        /**
         * Remove the organization's identity provider (owner only)
         * @description Sign-ins in flight for it fail at the callback. Accounts and memberships stay.
         */
        delete: operations["deleteOidcProvider"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects of the caller's organization (viewer+) */
        get: operations["listProjects"];
        put?: never;
        /** Create a project (admin+) */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One project (viewer+) */
        get: operations["getProject"];
        put?: never;
        post?: never;
        /**
         * Delete a project (owner)
         * @description The project and everything under it stop being reachable at once; its id is never reused.
         */
        delete: operations["deleteProject"];
        options?: never;
        head?: never;
        /** Rename a project or change its time zone or currency (admin+) */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/api/v1/projects/{id}/behavior/forms/purge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The latest 50 form-data purge jobs of the project, newest first (admin+) */
        get: operations["listFormPurges"];
        put?: never;
        /**
         * Delete all collected form-interaction data of the project (admin+), as a background job
         * @description Queues a job deleting every pp.form_start, pp.form_submit, pp.form_abandon event of the project, all time, and what is derived from them (daily rollups are folded again, cached answers drop). While a job of the project is queued or running, answers that job instead of queueing another. Events arriving after the job ran are kept: turn `autocapture_forms` off first. Without `X-Confirm-Purge: true`, 422 `confirmation_required`. Not plan-gated.
         */
        post: operations["purgeFormData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/behavior/forms/purge/{jobID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One form-data purge job of the project (admin+) */
        get: operations["getFormPurge"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/behavior/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Collection settings of the project (viewer+) */
        get: operations["getBehaviorSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change any subset of the settings atomically (admin+)
         * @description The flags never enable form values or input replay.
         */
        patch: operations["patchBehaviorSettings"];
        trace?: never;
    };
    "/api/v1/projects/{id}/catalog/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Known event names with counts, first/last event time and first/last time of receipt (viewer+)
         * @description Counts every stored event of the project. At most 10000 names (the most frequent), sorted by name.
         */
        get: operations["eventCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/catalog/props": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Top-level property keys with inferred value types (viewer+)
         * @description Read from the 10000 most recently received events that carry properties (of one event name with event=). Types: string, number, boolean, datetime (ISO 8601 strings), object, array, mixed (more than one). Keys seen only with null values are left out; at most 1000 keys (the most seen), sorted by key.
         */
        get: operations["propertyCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/dashboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dashboards of the project, by name (viewer+) */
        get: operations["listDashboards"];
        put?: never;
        /** Create an empty dashboard (analyst+); at most 100 per project */
        post: operations["createDashboard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/dashboards/{dashboardID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One dashboard with its tiles (viewer+) */
        get: operations["getDashboard"];
        put?: never;
        post?: never;
        /** Delete a dashboard, its tiles and its share links; its insights stay (analyst+) */
        delete: operations["deleteDashboard"];
        options?: never;
        head?: never;
        /**
         * Change names, the date range, the filters or the layout (analyst+)
         * @description Fields left out keep their value; null clears the date range or the filters. A layout lists every tile once, in the new order.
         */
        patch: operations["updateDashboard"];
        trace?: never;
    };
    "/api/v1/projects/{id}/dashboards/{dashboardID}/tiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add an insight or text tile at the end (analyst+); at most 40 per dashboard */
        post: operations["addTile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/dashboards/{dashboardID}/tiles/{tileID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a tile (analyst+) */
        delete: operations["deleteTile"];
        options?: never;
        head?: never;
        /** Change a tile’s size, or a text tile’s text (analyst+) */
        patch: operations["updateTile"];
        trace?: never;
    };
    "/api/v1/projects/{id}/dashboards/{dashboardID}/tiles/{tileID}/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The answer of an insight tile with the dashboard’s date range and filters (viewer+)
         * @description As the insight’s result call with the dashboard’s overrides; a text tile has none (404).
         */
        post: operations["tileResult"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stored events, or Integration Doctor records with view=doctor (viewer+)
         * @description Newest first by time of receipt (order=event_time: by the event time ts), ties broken by uuid descending; from and to always bound the time of receipt. Keyset pages: no event is repeated or skipped across the pages of one walk, and in the default order events arriving while a client pages never shift the events of later pages. A cursor is bound to the project, the view, the order and every filter (not to limit). view=doctor: from and to required, half-open, at most 31 days; at most one event; user_id, anonymous_id, anon_id, actor_id, release and order=event_time are refused.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live server-sent events of the project (viewer+)
         * @description text/event-stream of events committed after connecting. `event: event` carries an EventItem; at most 20 messages in any one-second window, and events beyond that are dropped and counted: `event: dropped` with data {"count": n}. Comment lines (`: heartbeat`) keep the connection alive.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The latest 50 exports of the project, newest first (admin+) */
        get: operations["listExports"];
        put?: never;
        /** Export the project's events with every stored field, as a background job (admin+) */
        post: operations["startExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/exports/{exportID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One export of the project; once it succeeded, with a fresh signed download link (admin+) */
        get: operations["getExport"];
        put?: never;
        post?: never;
        /** Cancel an export that has not finished (admin+) */
        delete: operations["cancelExport"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/exports/{exportID}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An export's file, through the signed link its job gives (no token) */
        get: operations["downloadExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/forms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Forms with views, starts, submits, conversion and abandonment */
        get: operations["listForms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/forms/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One form's fields ranked by drop-off; never an entered value */
        get: operations["getFormDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The latest 50 imports of the project, newest first (admin+) */
        get: operations["listImports"];
        put?: never;
        /**
         * Import events from an uploaded file, as a background job (admin+)
         * @description The request body is the file itself (up to 4294967296 bytes), sent with any content type but application/json (application/octet-stream, text/csv, application/x-ndjson, application/zip): PostHog's event export (JSON lines or CSV, gzip allowed), Amplitude's export (a zip of gzipped JSON lines), pp's NDJSON export, or CSV with a column mapping. Events keep their times; an event whose uuid the project holds is not stored again; a bad record is refused with its line number and the rest stored. See docs/migrating.md.
         */
        post: operations["startImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/imports/{importID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One import of the project, with its progress (admin+) */
        get: operations["getImport"];
        put?: never;
        post?: never;
        /** Cancel an import (admin+): a queued one never starts, a running one stops after its current batch; what it stored stays */
        delete: operations["cancelImport"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/insights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The saved insights of the project, most recently changed first (viewer+) */
        get: operations["listInsights"];
        put?: never;
        /**
         * Save a query as an insight; the query is checked as its route checks it (analyst+)
         * @description At most 500 per project. The query’s entitlements apply when it runs, not when it is saved.
         */
        post: operations["createInsight"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/insights/{insightID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One saved insight (viewer+) */
        get: operations["getInsight"];
        put?: never;
        post?: never;
        /** Delete an insight, its dashboard tiles and its share links (analyst+) */
        delete: operations["deleteInsight"];
        options?: never;
        head?: never;
        /** Rename, describe or replace the query of an insight; its kind stays (analyst+) */
        patch: operations["updateInsight"];
        trace?: never;
    };
    "/api/v1/projects/{id}/insights/{insightID}/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The insight’s answer, optionally for another date range or with more filters (viewer+)
         * @description The same answer, result cache and refusals as its query route for the body with the overrides; Cache-Control: no-cache asks for a fresh answer.
         */
        post: operations["insightResult"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List ingestion keys (never their values), newest first (admin or owner) */
        get: operations["listIngestKeys"];
        put?: never;
        /**
         * Issue an ingestion key (admin or owner); the value is returned once
         * @description A browser token (pp_bt_) needs at least one domain and an expiry. A server key (pp_sk_) takes no domains and may have no expiry. Scopes default to every scope the type allows: browser events:write, identify:write, replay:write, capture:write; server events:write, identify:write.
         */
        post: operations["issueIngestKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/keys/{keyID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an ingestion key (admin or owner); revoking twice is harmless */
        delete: operations["revokeIngestKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/keys/{keyID}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a key with a new value and revoke the old one (admin or owner)
         * @description The replacement keeps name, type, scopes and domains. Keys are never extended: without expires_at the replacement gets the old key's lifetime again, counted from now. A legacy key must name the type of its replacement (browser or server); the replacement holds the identify/alias right.
         */
        post: operations["rotateIngestKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/labeled-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every labeled-event rule of the project, ordered by event name (viewer+) */
        get: operations["listLabeledEventRules"];
        put?: never;
        /** Create a rule, active; its events are derived over all history in the background (analyst+) */
        post: operations["createLabeledEventRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/labeled-events/{ruleID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One rule (viewer+) */
        get: operations["getLabeledEventRule"];
        put?: never;
        post?: never;
        /** Mark a rule deleting; its derived events are deleted in the background, then the rule (analyst+) */
        delete: operations["deleteLabeledEventRule"];
        options?: never;
        head?: never;
        /** Replace a rule’s names, texts and conditions; changed conditions derive its events again (analyst+) */
        patch: operations["replaceLabeledEventRule"];
        trace?: never;
    };
    "/api/v1/projects/{id}/labeled-events/{ruleID}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disable an active rule; its derived events are deleted in the background (analyst+) */
        post: operations["disableLabeledEventRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/labeled-events/{ruleID}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Enable a disabled rule; its events are derived over all history in the background (analyst+) */
        post: operations["enableLabeledEventRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/labeled-events/picker-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A signed ten-minute element-picker token bound to the project, with its nonce (analyst+) */
        post: operations["issuePickerToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/labeled-events/picker/captures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the picker captured an element under the token, and its selector metadata (analyst+) */
        get: operations["pollPickerCapture"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/labeled-events/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Count the raw events a rule would match over the last 30 days; nothing is stored (analyst+) */
        post: operations["previewLabeledEventRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/pages/behavior": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One page: figures, click heatmap and clicked elements */
        get: operations["getPageBehavior"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/pages/behavior/urls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pages ordered by event count, with click, rage/dead-click and scroll figures */
        get: operations["listBehaviorUrls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/path-cleaning": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's path-cleaning rules and their revision (viewer+) */
        get: operations["getPathCleaning"];
        /**
         * Replace the path-cleaning rules (admin+); the revision moves on
         * @description Each pattern must compile as RE2 (the query engine) and as a JavaScript regular expression; a defect is 422 naming the rule. A rule whose result on a path could pass 4096 characters leaves that path as it was.
         */
        put: operations["setPathCleaning"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/path-cleaning/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Clean one URL with the saved rules, or with proposed ones, step by step (viewer+)
         * @description A rule whose result on this URL's path could pass 4096 characters is 422 naming it (the paths query leaves such a path as it was).
         */
        post: operations["testPathCleaning"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/person-deletions/{jobID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One person deletion job of the project (admin+) */
        get: operations["getPersonDeletion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/persons/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A person's ids, first and last seen, event counts, sessions and recordings (analyst+, actor_drilldown)
         * @description 404 when no event, identity link, trait or recording names the key. Analyst+ and the actor_drilldown entitlement (403 entitlement_required without it), like the other per-person views.
         */
        get: operations["getPerson"];
        put?: never;
        post?: never;
        /**
         * Delete everything stored about a person (admin+), as a background job
         * @description Queues a job deleting every event naming one of the person's ids (labeled events derived from them included), their identity links and traits, their recordings, and their share of the per-day rollups (folded again from the remaining events); cached answers drop. From the request on, their ids are refused at ingest for 30 days (code `person_erased` in rejected[]), unless a server key sends them with `"consent": true`. The audit log records who asked, never the ids. Poll the job at /person-deletions/{jobID}. Needs no entitlement: erasure never depends on the plan.
         */
        delete: operations["deletePerson"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/persons/{key}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Download everything stored about a person as NDJSON (admin+)
         * @description Answered at once, streamed as it is read (the server holds a page at a time): one JSON object per line, each with a `type`: `person` (first: the ids), `event` (every event naming one of their ids, oldest first; `labeled` marks derived ones), `identity_link`, `traits`, and `recording_chunk` (each stored chunk of their recordings with its rrweb events). Served as an attachment. The audit log records the export. Needs no entitlement: a person's access to their data never depends on the plan.
         */
        post: operations["exportPerson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/activation-drivers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activation drivers: early behaviors that go with being retained
         * @description Discovery (70% of actors by a hash of their id) picks each candidate’s window and threshold by phi; validation (the other 30%) judges that choice once. Actors whose outcome window is open at as_of are left out. Associations, not causes.
         */
        post: operations["queryActivationDrivers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/activity-summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * DAU, WAU, MAU and usage ratios for one local day
         * @description WAU and MAU are exact distinct actors over the trailing 7 and 30 local days ending at date_to.
         */
        post: operations["queryActivitySummary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/correlations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Correlations: events that go with reaching a target event, by lift
         * @description Converters are observed before their first target event, others for the converters' median time to convert from their first activity. Odds ratios with 95% intervals, p and Benjamini–Hochberg q values. Associations, not causes.
         */
        post: operations["queryCorrelations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/funnel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Funnel: conversion through ordered steps
         * @description Every step-1 event in the range starts an attempt; later steps must follow within window_hours of it. dropped_at_step needs actor_drilldown.
         */
        post: operations["queryFunnel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/lifecycle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lifecycle: new, returning, resurrecting and dormant actors per bucket
         * @description dormant is reported as a non-positive number.
         */
        post: operations["queryLifecycle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/paths": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Paths: the routes taken after or before a selected event
         * @description Top routes and a Sankey graph whose steps add up ($other folds items past top_n and links below min_count, $end the routes that stopped). Page views are their cleaned paths (see the path-cleaning rules). mode=session needs actor_drilldown.
         */
        post: operations["queryPaths"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/paths/actors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Actors through one node or link of a paths graph
         * @description The paths query with the same semantics (the whole graph, never a breakdown segment), and a node (step, item) or a link (step, item to next_item at step + 1) of its Sankey graph; the actors whose routes pass through it, ordered by actor id and cursor-paginated. Needs actor_drilldown.
         */
        post: operations["queryPathsActors"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retention by cohort of first start event
         * @description value=actors gives per-period ratios and counts; revenue, cumulative revenue per cohort member in the project currency; paid_conversion, the cumulative share that paid.
         */
        post: operations["queryRetention"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/retention/actors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Actors of one retention cohort and period
         * @description Same semantics as retention; ordered by actor id; needs actor_drilldown and saved_segments.
         */
        post: operations["queryRetentionActors"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/revenue-summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revenue, refunds, ARPU and ARPPU over a range
         * @description ARPU divides revenue by distinct active actors over the whole range, each counted once.
         */
        post: operations["queryRevenueSummary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/segmentation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Segmentation: a metric per time bucket, optionally grouped
         * @description Buckets are local to the project time zone and zero-filled; group_by ranks values by the metric over the whole range.
         */
        post: operations["querySegmentation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/stickiness": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stickiness: actors by number of distinct active days
         * @description One entry per possible day count (1..days in range), zero-filled.
         */
        post: operations["queryStickiness"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/queries/web": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Web analytics: visitors, page views, bounce rate and visit duration against the previous period, and the top tables
         * @description Visits are a visitor's events with no gap over 30 minutes, within the range; a bounce is a visit of one page view and no other event. Tables group visits by their entry page view's derived properties (docs/web-analytics.md). Filters keep the visits holding one event that matches them all.
         */
        post: operations["queryWebSummary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/recordings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Session recordings, newest first (analyst+, actor_drilldown)
         * @description Newest start first, ties broken by session id descending; keyset pages (no recording repeated or skipped across one walk). A cursor is bound to the project and every filter (not to limit). Analyst+ and the actor_drilldown entitlement (403 entitlement_required without it).
         */
        get: operations["listRecordings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/recordings/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A recording's summary, page views and the tracker's events of its session (analyst+, actor_drilldown)
         * @description Analyst+ and the actor_drilldown entitlement (403 entitlement_required without it).
         */
        get: operations["getRecording"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/recordings/{session_id}/chunks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The recorded rrweb events, in order (analyst+, actor_drilldown)
         * @description application/x-ndjson: one line per stored chunk, `{"seq": n, "events": [...]}`, in seq order; gzip-compressed when the client accepts it. Events the tracker sent in fragments arrive whole. Recordings hold what the tracker recorded: every input is masked, excluded subtrees are blocked, and in strict privacy mode all text is masked; nothing masked can be read back. While the project is in strict mode, text is masked again as it leaves the server, whatever mode a recording was made in. Analyst+ and the actor_drilldown entitlement (403 entitlement_required without it).
         */
        get: operations["streamRecording"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/release-markers/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a deploy with a release token of this project
         * @description Header Idempotency-Key (required; 8 to 128 printable characters, no spaces or commas, else 422). A new key creates the marker (201); the same key with the same body answers 200 with Idempotency-Replayed: true; the same key with another body is 409 idempotency_conflict. Only release tokens are accepted here, and release tokens nowhere else.
         */
        post: operations["recordDeployMarker"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/release-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List release tokens (admin+) */
        get: operations["listReleaseTokens"];
        put?: never;
        /** Issue a release token (admin+); scope release_markers:write; the value is returned once */
        post: operations["issueReleaseToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/release-tokens/{tokenID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a release token (admin+); always available */
        delete: operations["revokeReleaseToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/replay-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recordings retention and the storage recordings use (viewer+) */
        get: operations["getReplaySettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change how long recordings are kept (admin+)
         * @description Recordings past the new retention are deleted by the next sweep (hourly).
         */
        patch: operations["updateReplaySettings"];
        trace?: never;
    };
    "/api/v1/projects/{id}/segments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Saved segments of the project, by id (viewer+) */
        get: operations["listSegments"];
        put?: never;
        /** Save a segment (analyst+, saved_segments entitlement) */
        post: operations["createSegment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/segments/{segmentID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One saved segment (viewer+) */
        get: operations["getSegment"];
        put?: never;
        post?: never;
        /** Delete a segment (analyst+); queries naming it then answer 422 */
        delete: operations["deleteSegment"];
        options?: never;
        head?: never;
        /** Rename a segment or replace its filters (analyst+, saved_segments entitlement) */
        patch: operations["updateSegment"];
        trace?: never;
    };
    "/api/v1/projects/{id}/share-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The live share links of the project, newest first, without tokens (admin+) */
        get: operations["listShareLinks"];
        put?: never;
        /** A public link to a dashboard or an insight; the token is shown this once (admin+) */
        post: operations["createShareLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{id}/share-links/{linkID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a link at once (admin+) */
        delete: operations["revokeShareLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shared/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a share link shows: the dashboard with its tiles, or the insight, and the project’s name and time zone
         * @description No credentials. An unknown, revoked or expired token is 404.
         */
        get: operations["openSharedLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shared/{token}/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The answer of a shared insight
         * @description Always from the result cache while the events are unchanged (Cache-Control is ignored).
         */
        post: operations["sharedInsightResult"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/shared/{token}/tiles/{tileID}/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The answer of an insight tile of a shared dashboard, with the dashboard’s date range and filters
         * @description Always from the result cache while the events are unchanged (Cache-Control is ignored). A tile not on the dashboard is 404, like an unknown token.
         */
        post: operations["sharedTileResult"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/array/{token}/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** PostHog-compatible remote configuration of posthog-js: no flags, recordings or surveys */
        get: operations["posthogRemoteConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/array/{token}/config.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same configuration as a script that sets it for posthog-js */
        get: operations["posthogRemoteConfigScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * PostHog-compatible capture (/batch/): events as posthog-js, posthog-node and the other PostHog clients send them
         * @description The body is JSON, gzip (Content-Encoding: gzip, or ?compression=gzip-js), or a form field `data` holding base64 JSON; at most 1 MiB as sent and 10 MiB inflated. It is one event, a list of events, or {api_key, batch}; `api_key` or `token` (top level or in an event's properties) names a browser token or server key of pp, held to its scopes and domains. Answered 200 `{status: 1}` once stored (docs/ingestion.md, PostHog clients).
         */
        post: operations["posthogCapture_batch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/capture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * PostHog-compatible capture (/capture/): events as posthog-js, posthog-node and the other PostHog clients send them
         * @description The body is JSON, gzip (Content-Encoding: gzip, or ?compression=gzip-js), or a form field `data` holding base64 JSON; at most 1 MiB as sent and 10 MiB inflated. It is one event, a list of events, or {api_key, batch}; `api_key` or `token` (top level or in an event's properties) names a browser token or server key of pp, held to its scopes and domains. Answered 200 `{status: 1}` once stored (docs/ingestion.md, PostHog clients).
         */
        post: operations["posthogCapture_capture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/decide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * PostHog-compatible /decide/: no feature flags, no recording, no surveys
         * @description pp has no feature flags; PostHog clients asking for them get an empty answer and keep capturing.
         */
        get: operations["posthogFlags_decideGet"];
        put?: never;
        /**
         * PostHog-compatible /decide/: no feature flags, no recording, no surveys
         * @description pp has no feature flags; PostHog clients asking for them get an empty answer and keep capturing.
         */
        post: operations["posthogFlags_decidePost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/e": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * PostHog-compatible capture (/e/): events as posthog-js, posthog-node and the other PostHog clients send them
         * @description The body is JSON, gzip (Content-Encoding: gzip, or ?compression=gzip-js), or a form field `data` holding base64 JSON; at most 1 MiB as sent and 10 MiB inflated. It is one event, a list of events, or {api_key, batch}; `api_key` or `token` (top level or in an event's properties) names a browser token or server key of pp, held to its scopes and domains. Answered 200 `{status: 1}` once stored (docs/ingestion.md, PostHog clients).
         */
        post: operations["posthogCapture_e"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * PostHog-compatible /flags/: no feature flags, no recording, no surveys
         * @description pp has no feature flags; PostHog clients asking for them get an empty answer and keep capturing.
         */
        get: operations["posthogFlags_flagsGet"];
        put?: never;
        /**
         * PostHog-compatible /flags/: no feature flags, no recording, no surveys
         * @description pp has no feature flags; PostHog clients asking for them get an empty answer and keep capturing.
         */
        post: operations["posthogFlags_flagsPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/i/v0/e": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * PostHog-compatible capture (/i/v0/e/): events as posthog-js, posthog-node and the other PostHog clients send them
         * @description The body is JSON, gzip (Content-Encoding: gzip, or ?compression=gzip-js), or a form field `data` holding base64 JSON; at most 1 MiB as sent and 10 MiB inflated. It is one event, a list of events, or {api_key, batch}; `api_key` or `token` (top level or in an event's properties) names a browser token or server key of pp, held to its scopes and domains. Answered 200 `{status: 1}` once stored (docs/ingestion.md, PostHog clients).
         */
        post: operations["posthogCapture_i_v0_e"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/track": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * PostHog-compatible capture (/track/): events as posthog-js, posthog-node and the other PostHog clients send them
         * @description The body is JSON, gzip (Content-Encoding: gzip, or ?compression=gzip-js), or a form field `data` holding base64 JSON; at most 1 MiB as sent and 10 MiB inflated. It is one event, a list of events, or {api_key, batch}; `api_key` or `token` (top level or in an event's properties) names a browser token or server key of pp, held to its scopes and domains. Answered 200 `{status: 1}` once stored (docs/ingestion.md, PostHog clients).
         */
        post: operations["posthogCapture_track"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alias": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link a previous id (and everything linked to it) to a user id
         * @description Bearer key (or legacy ?key=) with scope identify:write; same rules as identify.
         */
        post: operations["alias"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store the element the picker captured
         * @description Bearer browser token (or legacy key) with scope capture:write. Stored under the picker token for the labeled-events picker to poll; at most 64 KiB.
         */
        post: operations["capture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/config/{prefix}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Public collection configuration of a browser token, by its eight-character prefix
         * @description No authentication. Only enabled collection kinds are listed. Unknown, revoked or expired prefixes (and server keys) are 404.
         */
        get: operations["publicCollectionConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness (and readiness with ready=1) */
        get: operations["healthIngest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/identify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link an anonymous id to a user id
         * @description Bearer key (or legacy ?key=) with scope identify:write; keys issued before the linking split get 403 credential_rotation_required. An anonymous id already linked to another user stays with it (rejected[0].code identity_conflict).
         */
        post: operations["identify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store a session-recording chunk
         * @description Browser token (Bearer or body `credential`) or legacy key with scope replay:write. Refused in rejected[] (replay_disabled) while recordings are off for the project.
         */
        post: operations["replay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sdk/browser/{version}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A versioned tracker file or its manifest (immutable; ETag is the quoted hex SHA-256) */
        get: operations["getTrackerFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current tracker core; not version-pinned, cached one hour, no ETag */
        get: operations["getTrackerShortUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/track": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send events (202 after they are durably stored)
         * @description Credential: Authorization: Bearer pp_bt_/pp_sk_ key, or a browser token in the body field `credential` (for sendBeacon, with a text/plain body), or a legacy key in ?key=. Scope events:write. Browser tokens only from their domains (Origin, else Referer).
         */
        post: operations["track"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ActivationDriversRequest: {
            /** @description each actor's first such event with its local date in the range is their anchor */
            anchor_event: string;
            /** @description each at most outcome.from_day (a window must end before the outcome window); default [1, 3, 7, 10, 14, 30] trimmed to outcome.from_day */
            behavior_windows_days?: number[];
            /**
             * @description the events most eligible actors did within the longest window
             * @default 50
             */
            candidate_limit?: number;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /**
             * @description leave out autocapture (`pp.*`) and labeled-event rows as candidates
             * @default true
             */
            exclude_managed_events?: boolean;
            /** @description never candidates */
            excluded_events?: string[];
            filters?: components["schemas"]["QueryFilters"];
            outcome: components["schemas"]["ActivationOutcome"];
        };
        ActivationDriversResponse: {
            anchor_event: string;
            /** @description actors with an anchor in the range */
            anchored: number;
            /**
             * Format: date-time
             * @description the instant maturity was judged against, captured once when the request started
             */
            as_of: string;
            candidates_considered: number;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /** @description by validation phi (highest first, null last), ties by event name */
            drivers: {
                /** @enum {unknown} */
                band: "highly predictive" | "moderately predictive" | "slightly predictive" | "not predictive";
                /** @enum {unknown} */
                direction: "positive" | "negative" | "none";
                discovery: {
                    actors: number;
                    phi: number;
                    support: number;
                };
                event: string;
                threshold: number;
                /** @description the validation interval leaves out zero */
                validated: boolean;
                validation: {
                    actors: number;
                    lift: number | null;
                    phi: number | null;
                    phi_high: number | null;
                    /** @description 95% interval by Fisher's z */
                    phi_low: number | null;
                    /** @description fraction 0..1; null when the denominator is 0 */
                    ppv: number | null;
                    /** @description fraction 0..1; null when the denominator is 0 */
                    retention_above: number | null;
                    /** @description fraction 0..1; null when the denominator is 0 */
                    retention_below: number | null;
                    support: number;
                    /** @description fraction 0..1; null when the denominator is 0 */
                    tpr: number | null;
                };
                window_days: number;
            }[];
            /** @description anchored actors whose outcome window has closed by as_of */
            eligible: number;
            /** @description anchored actors whose outcome window is still open: left out, not counted as lost */
            immature: number;
            outcome: components["schemas"]["ActivationOutcome"];
            retained: number;
            /** @description fraction 0..1; null when the denominator is 0 */
            retention_rate: number | null;
            split: {
                discovery_actors: number;
                discovery_share: number;
                method: string;
                validation_actors: number;
                validation_share: number;
            };
            /** @description k in "did it at least k times" */
            thresholds: number[];
            /** @description these are associations, not causes */
            warning: string;
            windows_days: number[];
        };
        /** @description retained: the outcome event at least once in [anchor day + from_day, anchor day + to_day); repeats do not strengthen it */
        ActivationOutcome: {
            /** @description the outcome event */
            event: string;
            /** @description first local day of the outcome window, counted from the anchor day (day 0) */
            from_day: number;
            /** @description the window ends before this day */
            to_day: number;
        };
        ActivitySummaryRequest: {
            /**
             * Format: date
             * @description the last local day counted, normally the last complete one
             */
            date_to: string;
            /**
             * @description an event name, or `any` for every event
             * @default any
             */
            event?: string;
        };
        ActivitySummaryResponse: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            dau: number;
            /** @description fraction 0..1; null when the denominator is 0 */
            dau_mau: number | null;
            event: string;
            mau: number;
            /** @description share of MAU actors active on two or more days */
            repeat_activity: number | null;
            /** @description mean active days (of 30) per MAU actor */
            usage_frequency: number | null;
            wau: number;
        };
        AliasRequest: {
            /** @description true, sent with a server key: the person agreed again, so ids refused after their deletion are accepted (and no longer refused); ignored otherwise */
            consent?: boolean;
            /** @description text (1–200 characters) or a whole number, stored as its decimal string */
            previous_id: string | number;
            /** @description text (1–200 characters) or a whole number, stored as its decimal string */
            user_id: string | number;
        };
        Author: {
            email: string;
            /** Format: int64 */
            id: number;
            name: string | null;
        };
        BehaviorPage: {
            /** Format: date */
            date_from: string;
            /** Format: date */
            date_to: string;
            heatmap: {
                bands: components["schemas"]["HeatmapBand"][];
                unplaced: number;
                x_step_percent: number;
                y_step_px: number;
            };
            items: components["schemas"]["ClickedElement"][];
            next_cursor: string | null;
            /** @enum {unknown} */
            privacy_mode: "standard" | "strict";
            summary: components["schemas"]["PageFigures"];
            url: string;
        };
        /** @description A project without stored settings resolves to strict privacy with every kind disabled and query strings stripped. */
        BehaviorSettings: {
            /** @description pp.click, rage and dead clicks */
            autocapture_clicks: boolean;
            /** @description form starts, submits and abandonment; never entered values */
            autocapture_forms: boolean;
            autocapture_hover_intent: boolean;
            /** @description scroll depth */
            autocapture_scroll: boolean;
            /** @description section visibility */
            autocapture_sections: boolean;
            /** @description page performance and error diagnostics */
            diagnostics_enabled: boolean;
            /**
             * @description strict masks all text in recordings and element texts
             * @enum {unknown}
             */
            privacy_mode: "standard" | "strict";
            /** @description session recordings; inputs are always masked */
            replay_enabled: boolean;
            /** @description share of sessions recorded, 0..1 (default 1) */
            replay_sample_rate: number;
            /** @description keep each event's client address as props.$ip (off: the address gives the country and is dropped) */
            store_client_address: boolean;
            /**
             * Format: date-time
             * @description null while the defaults apply
             */
            updated_at: string | null;
            /** @description query parameter names kept besides the campaign ones, compared with the decoded name exactly; no "&", "=", "#", no duplicates (default []) */
            url_query_allowlist: string[];
            /** @description query strings of stored page and referrer URLs keep only utm_source, utm_medium, utm_campaign, utm_term, utm_content, gclid, fbclid, msclkid and url_query_allowlist (default true); false keeps them whole */
            url_query_strip: boolean;
        };
        BehaviorURL: {
            clicks: number;
            /** @description dead_clicks / clicks (0 without clicks) */
            dead_click_rate: number;
            dead_clicks: number;
            events: number;
            page_views: number;
            /** @description rage_clicks / clicks (0 without clicks) */
            rage_click_rate: number;
            rage_clicks: number;
            scroll: {
                mean_depth: number | null;
                measured: number;
                /** @description fraction; null when the denominator is 0 */
                reach_25: number | null;
                /** @description fraction; null when the denominator is 0 */
                reach_50: number | null;
                /** @description fraction; null when the denominator is 0 */
                reach_75: number | null;
                /** @description fraction; null when the denominator is 0 */
                reach_100: number | null;
            };
            unique_clickers: number;
            /** @description normalized page URL */
            url: string;
        };
        BehaviorURLsPage: {
            /** Format: date */
            date_from: string;
            /** Format: date */
            date_to: string;
            items: components["schemas"]["BehaviorURL"][];
            next_cursor: string | null;
        };
        /** @description The subscription of a cloud organization (bootstrap `billing` section). */
        BillingSection: {
            /**
             * @description why the organization is limited now; null when it is not
             * @enum {unknown}
             */
            access: null | "trial_pending_review" | "trial_expired" | "subscription_required";
            billing_url: string;
            /** @description whether paid plans can be bought here (billing.checkout_url is set) */
            checkout_available: boolean;
            /** Format: date-time */
            current_period_end: string | null;
            entitlements: string[];
            /** Format: date-time */
            grace_ends_at: string | null;
            /** Format: date-time */
            past_due_since: string | null;
            /**
             * @description the plan in force (the trial plan while trialing or held); null while paused
             * @enum {unknown}
             */
            plan: "free" | "growth" | "scale" | null;
            plans: {
                entitlements: string[];
                events_per_month: number;
                /** @enum {unknown} */
                plan: "free" | "growth" | "scale";
            }[];
            /** @enum {unknown} */
            status: "trialing" | "pending_review" | "active" | "past_due" | "cancelled";
            trial_days_left: number | null;
            /** Format: date-time */
            trial_ends_at: string | null;
            /** Format: date-time */
            trial_started_at: string;
            /** @enum {unknown} */
            trial_state: "trialing" | "sms_required" | "pending_review" | "rejected" | "converted" | "expired";
        };
        Breakdown: {
            /** @default 25 */
            limit?: number;
            /** @description `url`, `path`, `referrer`, `source`, `sdk_name`, `release` or `props.<key>` (a top-level key, no `*`) */
            property: string;
        };
        CaptureRequest: {
            chain: components["schemas"]["ElementInfo"][];
            element: components["schemas"]["ElementInfo"];
            nonce: string;
            picker_token: string;
            selector: string;
            url: string;
        };
        ClickedElement: {
            /** @description clicks per 10 % cell of the element box (x, y: lower bounds in percent) */
            cells: {
                clicks: number;
                x: number;
                y: number;
            }[];
            clicks: number;
            dead_clicks: number;
            rage_clicks: number;
            selector: string;
            tag: string;
            /** @description most frequent visible text, standard privacy mode only */
            text: string | null;
            /** @description distinct actors with a pp.click on this element */
            unique_clickers: number;
        };
        CollectionConfig: {
            /** @description enabled kinds only */
            collect: ("clicks" | "hover_intent" | "sections" | "scroll" | "forms" | "replay" | "diagnostics")[];
            /** @enum {unknown} */
            privacy_mode: "standard" | "strict";
            /** @description present only when replay is enabled */
            replay_sample_rate?: number;
        };
        /** @description `{period: "previous"}` (the same number of days just before date_from) or an explicit `{date_from, date_to}` */
        CompareRequest: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from?: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to?: string;
            /** @enum {unknown} */
            period?: "previous";
        };
        CorrelationsRequest: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /**
             * @description leave out autocapture (`pp.*`) and labeled-event rows
             * @default true
             */
            exclude_managed?: boolean;
            filters?: components["schemas"]["QueryFilters"];
            /**
             * @description candidates listed, by lift
             * @default 20
             */
            limit?: number;
            /**
             * @description candidates are events at least this many actors did in their observation window
             * @default 5
             */
            min_n?: number;
            /** @description the conversion: actors who did it in the range converted */
            target_event: string;
        };
        CorrelationsResponse: {
            /** @description actors with any (matching) event in the range */
            actors: number;
            /** @description by lift (highest first; null last), ties by event name */
            candidates: {
                actors: number;
                /** @description fraction 0..1; null when the denominator is 0 */
                conversion_with: number | null;
                /** @description fraction 0..1; null when the denominator is 0 */
                conversion_without: number | null;
                converted_did: number;
                converted_did_not: number;
                event: string;
                /** @description P(convert | did) / P(convert) */
                lift: number | null;
                not_converted_did: number;
                not_converted_did_not: number;
                /** @description one added to each cell */
                odds_ratio: number;
                odds_ratio_high: number;
                /** @description 95% interval */
                odds_ratio_low: number;
                /** @description two-sided, of the log odds ratio */
                p_value: number;
                /** @description Benjamini–Hochberg over every candidate tested */
                q_value: number;
            }[];
            /** @description candidates that met min_n; the q values adjust over all of them */
            candidates_tested: number;
            /** @description fraction 0..1; null when the denominator is 0 */
            conversion_rate: number | null;
            converters: number;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /** @description non-converters are observed this long from their first activity (the converters' median time to convert); null without converters */
            observation_seconds: number | null;
            /** @description converters and non-converters differ by more than 10 to 1 */
            skewed: boolean;
            target_event: string;
            /** @description these are associations, not causes */
            warning: string;
        };
        CreatedShareLink: {
            /** @description shown this once; only its hash is kept */
            token: string;
            /** @description the console page showing it: /shared/<token> */
            url_path: string;
        } & components["schemas"]["ShareLink"];
        /** @description the token response plus the shell sections this installation has; a section without data is absent */
        CustomerBootstrapResponse: components["schemas"]["TokenResponse"] & {
            /** @description cloud only: the organization's subscription (docs/cloud.md); absent on-prem and for an organization without one */
            billing?: components["schemas"]["BillingSection"];
            /** @description on-prem license summary (docs/license.md) */
            license?: {
                days_left?: number | null;
                edition?: string | null;
                /** Format: date-time */
                expires_at?: string | null;
                /** @description entitlements in force now */
                features?: string[];
                /** Format: date-time */
                grace_ends_at?: string | null;
                licensee?: string | null;
                /** @enum {unknown} */
                status?: "none" | "valid" | "expiring" | "grace" | "expired";
                warnings?: string[];
            };
            /** @description cloud only: events counted against the limits */
            usage?: components["schemas"]["UsageSection"];
        };
        Dashboard: {
            /** Format: date-time */
            created_at: string;
            /** @description null once the user is deleted */
            created_by: components["schemas"]["Author"] | null;
            /**
             * Format: date
             * @description replaces each query’s date_from, a local date YYYY-MM-DD; null for none
             */
            date_from: string | null;
            /** @description a rolling range replacing each query’s dates, instead of date_from and date_to: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range: string | null;
            /**
             * Format: date
             * @description replaces each query’s date_to, a local date YYYY-MM-DD; null for none
             */
            date_to: string | null;
            description: string | null;
            /** @description added (AND) to each query’s top-level filters; null for none */
            filters: components["schemas"]["QueryFilters"] | null;
            /** Format: int64 */
            id: number;
            name: string;
            project_id: number;
            /** @description in order */
            tiles: components["schemas"]["Tile"][];
            /** Format: date-time */
            updated_at: string;
            /** @description null once the user is deleted */
            updated_by: components["schemas"]["Author"] | null;
        };
        DashboardBody: {
            /**
             * Format: date
             * @description replaces each query’s date_from, a local date YYYY-MM-DD; null for none
             */
            date_from?: string | null;
            /** @description a rolling range replacing each query’s dates, instead of date_from and date_to: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range?: string | null;
            /**
             * Format: date
             * @description replaces each query’s date_to, a local date YYYY-MM-DD; null for none
             */
            date_to?: string | null;
            description?: string | null;
            /** @description added (AND) to each query’s top-level filters; null for none */
            filters?: components["schemas"]["QueryFilters"] | null;
            name: string;
        };
        DashboardList: {
            /** @description by name, then id */
            items: components["schemas"]["DashboardSummary"][];
        };
        DashboardPatch: {
            /**
             * Format: date
             * @description replaces each query’s date_from, a local date YYYY-MM-DD; null for none
             */
            date_from?: string | null;
            /** @description a rolling range replacing each query’s dates, instead of date_from and date_to: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range?: string | null;
            /**
             * Format: date
             * @description replaces each query’s date_to, a local date YYYY-MM-DD; null for none
             */
            date_to?: string | null;
            description?: string | null;
            /** @description added (AND) to each query’s top-level filters; null for none */
            filters?: components["schemas"]["QueryFilters"] | null;
            /** @description every tile of the dashboard once, in the new order, with its size */
            layout?: {
                /** @description grid rows */
                height: number;
                /** Format: int64 */
                id: number;
                /** @description grid columns of 12 */
                width: number;
            }[];
            name?: string;
        };
        DashboardSummary: {
            /** Format: date-time */
            created_at: string;
            /** @description null once the user is deleted */
            created_by: components["schemas"]["Author"] | null;
            /**
             * Format: date
             * @description replaces each query’s date_from, a local date YYYY-MM-DD; null for none
             */
            date_from: string | null;
            /** @description a rolling range replacing each query’s dates, instead of date_from and date_to: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range: string | null;
            /**
             * Format: date
             * @description replaces each query’s date_to, a local date YYYY-MM-DD; null for none
             */
            date_to: string | null;
            description: string | null;
            /** @description added (AND) to each query’s top-level filters; null for none */
            filters: components["schemas"]["QueryFilters"] | null;
            /** Format: int64 */
            id: number;
            name: string;
            project_id: number;
            tile_count: number;
            /** Format: date-time */
            updated_at: string;
            /** @description null once the user is deleted */
            updated_by: components["schemas"]["Author"] | null;
        };
        DeployMarker: {
            commit: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            deployed_at: string;
            description: string | null;
            environment: string | null;
            id: number;
            release: string;
            url: string | null;
        };
        /** @description Integration Doctor record, metadata v2: an accepted event or a refused attempt; never property values or identities. */
        DoctorRecord: {
            /** @description why an attempt was refused */
            code?: string | null;
            /** @description event name (of a refused attempt: as sent, at most 200 characters, when it was a string) */
            event?: string | null;
            /** @description position of the refused event in its request */
            event_index?: number | null;
            /** @description public id of the ingestion key */
            key_id?: string | null;
            /** @enum {unknown} */
            kind: "accepted" | "rejected";
            message?: string | null;
            /** @constant */
            metadata_version: 2;
            /** @description refused attempts: track, identify, alias, replay or capture */
            operation?: string | null;
            /**
             * @description valid: stored clean; invalid: stored with warnings; rejected: refused
             * @enum {unknown}
             */
            outcome: "valid" | "invalid" | "rejected";
            /** Format: date-time */
            received_at: string;
            /** @description the X-Request-Id the refused request was answered with */
            request_id?: string | null;
            sdk_name?: string | null;
            sdk_version?: string | null;
            source: string;
            /**
             * Format: date-time
             * @description client time of an accepted event
             */
            ts?: string | null;
            /** @description accepted events only */
            uuid?: string | null;
            /** @description invalid_reasons of an accepted event */
            warnings: string[];
        };
        ElementInfo: {
            attributes?: {
                [key: string]: string;
            };
            classes?: string[];
            id?: string;
            nth_child?: number;
            tag: string;
            text?: string;
        };
        Error: {
            error: {
                /** @description machine-readable snake_case code */
                code: string;
                /** @description field names, limits, request id; never a stack trace */
                details: Record<string, never>;
                message: string;
            };
        };
        /** @description A stored event. The live stream sends the same object. */
        EventItem: {
            /** @description the actor the event resolves to now: the user its distinct id is linked to, else the distinct id */
            actor_id: string;
            anonymous_id?: string | null;
            /** @description user_id if the event had one, else anonymous_id */
            distinct_id: string;
            event: string;
            /** @description stored with warnings */
            invalid: boolean;
            /** @description the warnings, e.g. ts_in_future, revenue_not_numeric */
            invalid_reasons: string[];
            path?: string | null;
            props: Record<string, never> | null;
            /**
             * Format: date-time
             * @description server time of receipt; the list is ordered by it unless order=event_time
             */
            received_at: string;
            referrer?: string | null;
            release?: string | null;
            /** @description props.revenue read as a signed number */
            revenue?: number | null;
            sdk_name?: string | null;
            sdk_version?: string | null;
            session_id?: string | null;
            /** @enum {unknown} */
            source: "browser" | "server" | "import" | "system" | "unknown";
            /**
             * Format: date-time
             * @description client time (time of receipt when the client sent none)
             */
            ts: string;
            url?: string | null;
            user_id?: string | null;
            /** Format: uuid */
            uuid: string;
        };
        EventsPage: {
            /** @description EventItem, or DoctorRecord with view=doctor; newest first in the order asked for */
            items: (components["schemas"]["EventItem"] | components["schemas"]["DoctorRecord"])[];
            /** @description opaque; null on the last page */
            next_cursor: string | null;
        };
        ExportJob: {
            /** @description size of the file; null until the job succeeded */
            bytes: number | null;
            /** Format: date-time */
            created_at: string;
            /** @description a signed link to the file (no token needed), fresh with every answer and valid 60 minutes; null unless the job succeeded and has not expired */
            download_url: string | null;
            error: string | null;
            /** @description events written; null until the job succeeded */
            events: number | null;
            /**
             * Format: date-time
             * @description when download_url stops working
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description when the file is removed and the export expires (7 days after it finished); null unless it succeeded
             */
            file_expires_at: string | null;
            /**
             * Format: date-time
             * @description when the file was removed; null while it is kept
             */
            file_removed_at: string | null;
            /**
             * Format: date-time
             * @description null until the job ended
             */
            finished_at: string | null;
            /** @enum {unknown} */
            format: "ndjson" | "csv" | "parquet";
            /** Format: date */
            from: string | null;
            /** Format: int64 */
            id: number;
            /**
             * Format: date-time
             * @description when the job last started
             */
            started_at: string | null;
            /**
             * @description queued → running → succeeded, failed or cancelled; a succeeded export is expired 7 days after it finished, when its file is removed
             * @enum {unknown}
             */
            state: "queued" | "running" | "succeeded" | "failed" | "cancelled" | "expired";
            /** Format: date */
            to: string | null;
        };
        ExportJobList: {
            items: components["schemas"]["ExportJob"][];
            next_cursor: null;
        };
        ExportRequest: {
            /**
             * @default ndjson
             * @enum {unknown}
             */
            format?: "ndjson" | "csv" | "parquet";
            /**
             * Format: date
             * @description first local day (project time zone) to export; absent: from the first event
             */
            from?: string | null;
            /**
             * Format: date
             * @description last local day to export, included; absent: through the last event
             */
            to?: string | null;
        };
        FormDetailPage: {
            abandoned: number;
            attempts: number;
            /** Format: date */
            date_from: string;
            /** Format: date */
            date_to: string;
            form: string;
            items: components["schemas"]["FormField"][];
            /** @description milliseconds; null when nothing was measured */
            median_hesitation_ms: number | null;
            next_cursor: string | null;
            submitted: number;
            url: string | null;
        };
        FormField: {
            corrections: number;
            /** @description fraction; null when the denominator is 0 */
            drop_off_rate: number | null;
            drop_offs: number;
            /** @description field selector, relative to its form */
            field: string;
            interactions: number;
            left_blank: number;
            /** @description milliseconds; null when nothing was measured */
            median_time_ms: number | null;
            /** @description milliseconds; null when nothing was measured */
            median_to_change_ms: number | null;
            refocuses: number;
            tag: string | null;
            type: string | null;
        };
        FormPurgeJob: {
            /** Format: date-time */
            created_at: string;
            /** @description events deleted; null until the job succeeded */
            deleted_events: number | null;
            /** @description why the job failed; null otherwise */
            error: string | null;
            /**
             * Format: date-time
             * @description null until the job succeeded or failed
             */
            finished_at: string | null;
            /** Format: int64 */
            id: number;
            /** @description id of the user who asked for the purge */
            requested_by: number | null;
            /**
             * Format: date-time
             * @description when the job last started; null while it never ran
             */
            started_at: string | null;
            /**
             * @description queued → running → succeeded or failed; a job running when the server stopped is queued again at its start
             * @enum {unknown}
             */
            state: "queued" | "running" | "succeeded" | "failed";
        };
        FormPurgeJobList: {
            /** @description the latest 50 jobs, newest first */
            items: components["schemas"]["FormPurgeJob"][];
            /** @description older jobs are not listed */
            next_cursor: null;
        };
        FormsPage: {
            /** Format: date */
            date_from: string;
            /** Format: date */
            date_to: string;
            items: components["schemas"]["FormSummary"][];
            next_cursor: string | null;
        };
        FormSummary: {
            /** @description fraction; null when the denominator is 0 */
            abandonment_rate: number | null;
            abandons: number;
            /** @description fraction; null when the denominator is 0 */
            conversion_rate: number | null;
            /** @description privacy-safe form selector */
            form: string;
            /** @description milliseconds; null when nothing was measured */
            median_time_to_submit_ms: number | null;
            resubmissions: number;
            /** @description fraction; null when the denominator is 0 */
            start_rate: number | null;
            starters: number;
            starts: number;
            submits: number;
            submitters: number;
            /** @description normalized page URL */
            url: string;
            views: number;
        };
        FunnelRequest: {
            breakdown?: components["schemas"]["Breakdown"];
            compare?: components["schemas"]["CompareRequest"];
            /**
             * @default actors
             * @enum {unknown}
             */
            count_by?: "actors" | "totals";
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from?: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to?: string;
            /** @description 1 ≤ k < steps; actors whose level is exactly k (needs actor_drilldown; count_by=actors only) */
            dropped_at_step?: number;
            /** @description opaque cursor from the previous page, bound to this query */
            dropped_cursor?: string;
            /** @default 50 */
            dropped_limit?: number;
            steps: components["schemas"]["FunnelStep"][];
            /**
             * @description revenue adds the estimated monthly loss per transition in the project currency (count_by=actors only)
             * @default actors
             * @enum {unknown}
             */
            value?: "actors" | "revenue";
            /**
             * @description conversion window from the step-1 event, inclusive
             * @default 336
             */
            window_hours?: number;
        };
        FunnelResponse: {
            compare?: components["schemas"]["FunnelResult"];
            dropped?: {
                actors: {
                    actor_id: string;
                }[];
                next_cursor: string | null;
                step: number;
            };
        } & components["schemas"]["FunnelResult"];
        FunnelResult: {
            /** @description segments in rank order, `$other` last; they add up to the total */
            breakdown?: {
                /** @description the value, `$none` (absent) or `$other` */
                name: string;
                steps: components["schemas"]["FunnelStepResult"][];
                value: string | null;
            }[];
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            revenue?: {
                converting_actors: number;
                /** @description project currency, over the range */
                revenue_per_converting_actor: number | null;
                transitions: {
                    dropped: number;
                    /** @description project currency per 30 days */
                    estimated_monthly_loss: number | null;
                    from_step: number;
                    to_step: number;
                }[];
            };
            steps: components["schemas"]["FunnelStepResult"][];
        };
        FunnelStep: {
            event: string;
            filters?: components["schemas"]["QueryFilters"];
            label?: string;
        };
        FunnelStepResult: {
            /** @description count / step-1 count */
            conversion_rate: number | null;
            count: number;
            event: string;
            label: string;
            mean_seconds_from_previous: number | null;
            median_seconds_from_previous: number | null;
            /** @description count / previous step count */
            step_conversion_rate: number | null;
        };
        GroupBy: {
            /** @default 10 */
            limit?: number;
            /** @description `url`, `path`, `referrer`, `source`, `sdk_name`, `release` or `props.<key>` (a top-level key, no `*`) */
            property: string;
        };
        HeatmapBand: {
            /** @enum {unknown} */
            band: "mobile" | "tablet" | "desktop" | "wide";
            /** @description x: lower bound of a 2 % column of the viewport width; y: lower bound of a 25 px row of the page */
            cells: {
                clicks: number;
                x: number;
                y: number;
            }[];
            clicks: number;
            fixed_clicks: number;
            max_width: number | null;
            min_width: number;
            truncated: boolean;
        };
        IdentifyRequest: {
            /** @description text (1–200 characters) or a whole number, stored as its decimal string */
            anonymous_id: string | number;
            /** @description true, sent with a server key: the person agreed again, so ids refused after their deletion are accepted (and no longer refused); ignored otherwise */
            consent?: boolean;
            /** @description merged into the user's traits (at most 16 KiB) */
            traits?: Record<string, never>;
            /** @description text (1–200 characters) or a whole number, stored as its decimal string */
            user_id: string | number;
        };
        ImportJob: {
            /** Format: date-time */
            created_at: string;
            /** @description bytes of the files read so far */
            done_bytes: number;
            /** @description events not stored because the project holds their uuid already (or an earlier line of the import did) */
            duplicates: number;
            /** @description why the job failed; null otherwise */
            error: string | null;
            /**
             * Format: date-time
             * @description when the uploaded file was removed: as the import succeeded, or at the first hourly sweep after it was cancelled or failed; null while it is kept, and for files ppctl read from the local disk
             */
            file_removed_at: string | null;
            /** @description the names of the files imported */
            files: string[];
            /**
             * Format: date-time
             * @description null until the job ended
             */
            finished_at: string | null;
            /** @enum {unknown} */
            format: "posthog" | "amplitude" | "ndjson" | "csv";
            /** Format: int64 */
            id: number;
            /** @description records read (header rows not counted) */
            lines: number;
            /** @description records refused */
            rejected: number;
            /** @description the first 100 refused records: file (zip entries as file:entry), 1-based line where the record starts, and why */
            rejections: {
                file: string;
                line: number;
                reason: string;
            }[];
            /**
             * Format: date-time
             * @description when the job last started; null while it never ran
             */
            started_at: string | null;
            /**
             * @description queued → running → succeeded, failed or cancelled; a job running when the server stopped resumes from its checkpoint at the next start
             * @enum {unknown}
             */
            state: "queued" | "running" | "succeeded" | "failed" | "cancelled";
            /** @description events stored */
            stored: number;
            /** @description size of the files */
            total_bytes: number;
            /**
             * Format: date-time
             * @description when the progress was last saved
             */
            updated_at: string;
        };
        ImportJobList: {
            /** @description the latest 50 imports, newest first */
            items: components["schemas"]["ImportJob"][];
            next_cursor: null;
        };
        IngestAccepted: {
            /** @description items stored (or already stored under the same uuid / seq) */
            accepted: number;
            rejected: {
                /** @enum {unknown} */
                code: "invalid_event" | "event_required" | "identity_required" | "invalid_field" | "too_large" | "identity_conflict" | "replay_disabled";
                /** @description position in `events` (0 for a single item) */
                index: number;
                /** @description names the field, never its value */
                message: string;
            }[];
        };
        IngestKey: {
            /** Format: date-time */
            created_at: string;
            domains: string[];
            /** Format: date-time */
            expires_at: string | null;
            id: number;
            /** @description false for legacy keys issued before identify/alias became a separate right; those get 403 credential_rotation_required there */
            linking_split: boolean;
            name: string;
            /** @description the eight-character public id following the type prefix; public collection configuration is read by it */
            prefix: string;
            /** Format: date-time */
            revoked_at: string | null;
            rotated_from: number | null;
            scopes: ("events:write" | "identify:write" | "replay:write" | "capture:write")[];
            /** @enum {unknown} */
            status: "active" | "revoked" | "expired";
            /**
             * @description value prefix pp_bt_, pp_sk_ or pp_wk_
             * @enum {unknown}
             */
            type: "browser" | "server" | "legacy";
        };
        Insight: {
            /** Format: date-time */
            created_at: string;
            /** @description null once the user is deleted */
            created_by: components["schemas"]["Author"] | null;
            /** @description dashboards showing it, by name */
            dashboards: {
                /** Format: int64 */
                id: number;
                name: string;
            }[];
            /** @description a rolling range replacing the query’s own dates when answered: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range: string | null;
            description: string | null;
            /** Format: int64 */
            id: number;
            /** @enum {unknown} */
            kind: "funnel" | "retention" | "retention/actors" | "segmentation" | "lifecycle" | "stickiness" | "activity-summary" | "revenue-summary" | "paths" | "paths/actors" | "correlations" | "activation-drivers" | "web";
            name: string;
            project_id: number;
            /** @description the body of POST /projects/{id}/queries/<kind> */
            query: Record<string, never>;
            /** Format: date-time */
            updated_at: string;
            /** @description null once the user is deleted */
            updated_by: components["schemas"]["Author"] | null;
        };
        InsightBody: {
            /** @description a rolling range replacing the query’s own dates when answered: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range?: string | null;
            description?: string | null;
            /**
             * @description the query route below /queries/
             * @enum {unknown}
             */
            kind: "funnel" | "retention" | "retention/actors" | "segmentation" | "lifecycle" | "stickiness" | "activity-summary" | "revenue-summary" | "paths" | "paths/actors" | "correlations" | "activation-drivers" | "web";
            name: string;
            /** @description that route’s request body, checked as it checks it */
            query: Record<string, never>;
        };
        InsightList: {
            /** @description most recently changed first */
            items: components["schemas"]["Insight"][];
        };
        InsightPatch: {
            /** @description a rolling range replacing the query’s own dates when answered: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range?: string | null;
            description?: string | null;
            name?: string;
            /** @description the whole new body; the kind cannot change */
            query?: Record<string, never>;
        };
        Invite: {
            /** Format: date-time */
            accepted_at: string | null;
            /** Format: date-time */
            created_at: string;
            email: string;
            /**
             * Format: date-time
             * @description seven days after creation
             */
            expires_at: string;
            id: number;
            /** @description user id of the inviter */
            invited_by: number | null;
            /** @enum {unknown} */
            role: "viewer" | "analyst" | "admin" | "owner";
            /** @enum {unknown} */
            status: "pending" | "accepted" | "expired";
        };
        IssuedIngestKey: components["schemas"]["IngestKey"] & {
            /** @description the full key value; shown only in this response */
            value: string;
        };
        IssuedPersonalApiKey: components["schemas"]["PersonalApiKey"] & {
            /** @description the full key value (pp_pk_…); shown only in this response */
            value: string;
        };
        IssuedReleaseToken: components["schemas"]["ReleaseToken"] & {
            /** @description the full key value; shown only in this response */
            value: string;
        };
        LabeledEventAttribute: {
            /** @description id, class, href, name, type, role, aria-label or a data-pp-* attribute */
            name: string;
            /** @enum {unknown} */
            op: "eq" | "contains" | "exists";
            /** @description required for eq and contains; ignored for exists */
            value?: string;
        };
        LabeledEventMaterialization: {
            /** @description events the rule labeled after its latest successful job (kept while another runs); null until one succeeded */
            derived_events: number | null;
            /** @description why the job failed */
            error: string | null;
            /**
             * Format: date-time
             * @description null until the job ended
             */
            finished_at: string | null;
            /** @enum {unknown} */
            state: "queued" | "running" | "succeeded" | "failed";
        };
        LabeledEventPreview: {
            /** @description raw events matching, with their time in (from, to] */
            count: number;
            /** Format: date-time */
            from: string;
            /** Format: date-time */
            to: string;
        };
        LabeledEventPreviewBody: {
            /** @description conditions on the matched element */
            attributes?: components["schemas"]["LabeledEventAttribute"][] | null;
            /**
             * @description the autocapture event the rule labels
             * @enum {unknown}
             */
            base_event: "pp.click" | "pp.form_submit" | "pp.page_view";
            /** @description what the rule is for */
            description?: string | null;
            /** @description a name for people */
            display_name?: string | null;
            /** @description the derived events’ name, unique in the project; not starting with pp. */
            event_name?: string;
            /** @description the clicked element's text, case-insensitive */
            match_text?: string | null;
            /** @description CSS subset: tag, #id, .class, [attr], [attr=value], :nth-child(n), descendant and > combinators */
            selector?: string | null;
            /** @description exact normalized URL, or with * wildcards; starting with / it is matched against the path */
            url_pattern?: string | null;
        };
        LabeledEventRule: {
            attributes: components["schemas"]["LabeledEventAttribute"][];
            /** @enum {unknown} */
            base_event: "pp.click" | "pp.form_submit" | "pp.page_view";
            /** Format: date-time */
            created_at: string;
            created_by: number | null;
            description: string | null;
            display_name: string | null;
            event_name: string;
            /** Format: int64 */
            id: number;
            /** @description events the rule labels now: derived over history, and since as events arrived */
            labeled_events: number;
            match_text: string | null;
            /** @description the latest derivation or teardown job */
            materialization: components["schemas"]["LabeledEventMaterialization"] | null;
            selector: string | null;
            /**
             * @description active → disabled → active; active or disabled → deleting, then gone
             * @enum {unknown}
             */
            state: "active" | "disabled" | "deleting";
            /** Format: date-time */
            updated_at: string;
            updated_by: number | null;
            url_pattern: string | null;
        };
        LabeledEventRuleBody: {
            /** @description conditions on the matched element */
            attributes?: components["schemas"]["LabeledEventAttribute"][] | null;
            /**
             * @description the autocapture event the rule labels
             * @enum {unknown}
             */
            base_event: "pp.click" | "pp.form_submit" | "pp.page_view";
            /** @description what the rule is for */
            description?: string | null;
            /** @description a name for people */
            display_name?: string | null;
            /** @description the derived events’ name, unique in the project; not starting with pp. */
            event_name: string;
            /** @description the clicked element's text, case-insensitive */
            match_text?: string | null;
            /** @description CSS subset: tag, #id, .class, [attr], [attr=value], :nth-child(n), descendant and > combinators */
            selector?: string | null;
            /** @description exact normalized URL, or with * wildcards; starting with / it is matched against the path */
            url_pattern?: string | null;
        };
        LabeledEventRuleList: {
            /** @description every rule of the project, by event name */
            items: components["schemas"]["LabeledEventRule"][];
        };
        LifecycleRequest: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            filters?: components["schemas"]["QueryFilters"];
            /**
             * @default day
             * @enum {unknown}
             */
            interval?: "day" | "week";
        };
        LifecycleResponse: {
            buckets: {
                /**
                 * Format: date
                 * @description inclusive local date in the project time zone, YYYY-MM-DD
                 */
                bucket: string;
                dormant: number;
                new: number;
                resurrecting: number;
                returning: number;
            }[];
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /** @enum {unknown} */
            interval: "day" | "week";
        };
        Me: {
            /** @description the access token's organization and the caller's role in it */
            org: components["schemas"]["OrgMembership"];
            /** @description every organization the caller belongs to (switch with POST /auth/refresh {org_id}) */
            orgs: components["schemas"]["OrgMembership"][];
            /** Format: uuid */
            session_id: string;
            user: {
                /** Format: date-time */
                created_at: string;
                email: string;
                id: number;
                mfa_enabled: boolean;
                name: string | null;
                /** @description the password was set by someone else (first-start one-time password, operator reset); change it with POST /me/password */
                password_change_required: boolean;
            };
        };
        Member: {
            email: string;
            /** Format: date-time */
            joined_at: string;
            name: string | null;
            /** @enum {unknown} */
            role: "viewer" | "analyst" | "admin" | "owner";
            user_id: number;
        };
        /** @description no token was issued; repeat the same request with `mfa_code` */
        MFARequiredResponse: {
            /** @constant */
            mfa_required: true;
        };
        OIDCNotConfigured: {
            /** @constant */
            configured: false;
            /** @description the redirect URI to register at the provider when configuring one */
            redirect_uri: string;
        };
        OIDCProvider: {
            client_id: string;
            /**
             * @description the secret itself is never returned
             * @constant
             */
            client_secret_set: true;
            /** @constant */
            configured: true;
            /** Format: date-time */
            created_at: string;
            domains: string[];
            enabled: boolean;
            issuer: string;
            jit: {
                /** @enum {unknown} */
                default_role: "viewer" | "analyst" | "admin";
                enabled: boolean;
            };
            org_id: number;
            /** @description the redirect URI to register at the provider: BASE_URL/api/v1/auth/oidc/callback */
            redirect_uri: string;
            /** Format: date-time */
            updated_at: string;
        };
        OIDCStartResponse: {
            /**
             * Format: uri
             * @description the identity provider's authorization URL; its state is valid ten minutes
             */
            authorization_url: string;
        };
        Organization: {
            /** Format: date-time */
            created_at: string;
            id: number;
            name: string;
        };
        OrgMembership: {
            id: number;
            name: string;
            /** @enum {unknown} */
            role: "viewer" | "analyst" | "admin" | "owner";
        };
        PageFigures: {
            clicks: number;
            /** @description dead_clicks / clicks (0 without clicks) */
            dead_click_rate: number;
            dead_clicks: number;
            events: number;
            page_views: number;
            /** @description rage_clicks / clicks (0 without clicks) */
            rage_click_rate: number;
            rage_clicks: number;
            scroll: {
                mean_depth: number | null;
                measured: number;
                /** @description fraction; null when the denominator is 0 */
                reach_25: number | null;
                /** @description fraction; null when the denominator is 0 */
                reach_50: number | null;
                /** @description fraction; null when the denominator is 0 */
                reach_75: number | null;
                /** @description fraction; null when the denominator is 0 */
                reach_100: number | null;
            };
            unique_clickers: number;
        };
        PathBreakdown: {
            /**
             * @description values kept (by units); the rest fold into `$other`
             * @default 5
             */
            limit?: number;
            /** @description `url`, `path`, `referrer`, `source`, `sdk_name`, `release` or `props.<key>` (a top-level key, no `*`) */
            property: string;
        };
        PathCleaning: {
            /** @description the URL-normalization revision; grows with every change */
            revision: number;
            rules: components["schemas"]["PathRule"][];
            /** Format: date-time */
            updated_at: string | null;
        };
        PathCleaningChange: {
            /** @description applied in order, each to the result of the previous one; the aliases together at most 2000 characters */
            rules: components["schemas"]["PathRule"][];
        };
        PathCleaningTestRequest: {
            /** @description rules to try instead of the saved ones */
            rules?: components["schemas"]["PathRule"][];
            /** @description an absolute URL or a path starting with `/` */
            url: string;
        };
        PathCleaningTrace: {
            /** @description the item a page view of this URL becomes */
            cleaned: string | null;
            /** @description the URL's path; null when it has none (then page views show as pp.page_view) */
            path: string | null;
            steps: {
                alias: string;
                matched: boolean;
                pattern: string;
                result: string;
            }[];
            url: string;
        };
        PathGraph: {
            /** @description most frequent whole routes first, ties by their items; in time order */
            routes: {
                count: number;
                items: string[];
                /** @description count / units */
                share: number | null;
            }[];
            sankey: {
                /** @description forward in time */
                links: {
                    source: number;
                    target: number;
                    value: number;
                }[];
                /** @description by step; each step adds up to the units on their route one step nearer the anchor */
                nodes: {
                    count: number;
                    /** @description an item, `$other` or `$end` */
                    item: string;
                    /** @description 0 is the anchor; negative before it */
                    step: number;
                }[];
            };
            /** @description units (actors or sessions) whose route reached the anchor */
            units: number;
        };
        PathResponse: {
            /** @description per value of the anchor event, in rank order, `$other` last */
            breakdown?: ({
                /** @description the value, `$none` (absent) or `$other` */
                name: string;
                value: string | null;
            } & components["schemas"]["PathGraph"])[];
            /** @enum {unknown} */
            counted: "actors" | "sessions";
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /** @enum {unknown} */
            direction: "before" | "after";
        } & components["schemas"]["PathGraph"];
        PathRule: {
            /** @description what replaces every match, e.g. `/users/:id`; `\1`…`\9` insert groups */
            alias: string;
            /** @description a regular expression (RE2 syntax), e.g. `/users/\d+` */
            pattern: string;
        };
        PathsActorsRequest: {
            breakdown?: components["schemas"]["PathBreakdown"];
            /** @description opaque cursor from the previous page, bound to this query */
            cursor?: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /** @description items after (or before) the anchor */
            depth: number;
            /**
             * @description after: the anchor and the items following it; before: the items leading to it
             * @enum {unknown}
             */
            direction: "before" | "after";
            /** @description direction=after only: routes end at the first such item after the anchor */
            end_event?: string;
            /** @description items removed before routes are formed */
            exclude_events?: string[];
            filters?: components["schemas"]["QueryFilters"];
            /** @description the node's item as the paths answer gives it (`$other` and `$end` included) */
            item: string;
            /** @default 50 */
            limit?: number;
            /**
             * @description routes below it are not listed; graph links below it fold into `$other`
             * @default 1
             */
            min_count?: number;
            /**
             * @description a route per actor, or per session (mode=session needs actor_drilldown)
             * @enum {unknown}
             */
            mode: "actor" | "session";
            /** @description with it, the link from the node to this item at step + 1 */
            next_item?: string;
            /** @description the anchor: an event name, `pp.page_view` for any page view, or a cleaned page path such as `/pricing` */
            selected_event: string;
            /** @description direction=before only: routes begin at the last such item before the anchor */
            start_event?: string;
            /** @description the node's step as the paths answer gives it: 0…depth after the anchor, -depth…0 before it */
            step: number;
            /**
             * @description routes listed, and named items per graph step
             * @default 20
             */
            top_n?: number;
        };
        PathsActorsResponse: {
            item: string;
            items: {
                actor_id: string;
                /** @description the actor has recordings to watch */
                recorded: boolean;
            }[];
            next_cursor: string | null;
            next_item: string | null;
            step: number;
            /** @description distinct actors of those units, every page together */
            total: number;
            /** @description units (actors, or sessions) through the node or link, as the graph counts them */
            units: number;
        };
        PathsRequest: {
            breakdown?: components["schemas"]["PathBreakdown"];
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /** @description items after (or before) the anchor */
            depth: number;
            /**
             * @description after: the anchor and the items following it; before: the items leading to it
             * @enum {unknown}
             */
            direction: "before" | "after";
            /** @description direction=after only: routes end at the first such item after the anchor */
            end_event?: string;
            /** @description items removed before routes are formed */
            exclude_events?: string[];
            filters?: components["schemas"]["QueryFilters"];
            /**
             * @description routes below it are not listed; graph links below it fold into `$other`
             * @default 1
             */
            min_count?: number;
            /**
             * @description a route per actor, or per session (mode=session needs actor_drilldown)
             * @enum {unknown}
             */
            mode: "actor" | "session";
            /** @description the anchor: an event name, `pp.page_view` for any page view, or a cleaned page path such as `/pricing` */
            selected_event: string;
            /** @description direction=before only: routes begin at the last such item before the anchor */
            start_event?: string;
            /**
             * @description routes listed, and named items per graph step
             * @default 20
             */
            top_n?: number;
        };
        Person: {
            /** @description the actor the key resolves to, as queries and actor lists name the person */
            actor_id: string;
            /** @description every id of the person, sorted: ids linked by identify and alias, and the anonymous and user ids sent together with them */
            distinct_ids: string[];
            /** @description events naming one of their ids (labeled events not included) */
            events: number;
            /**
             * Format: date-time
             * @description time of their earliest event; null without events
             */
            first_seen: string | null;
            /** @description events labeling rules derived from theirs */
            labeled_events: number;
            /**
             * Format: date-time
             * @description time of their latest event
             */
            last_seen: string | null;
            /** @description recorded sessions of theirs */
            recordings: number;
            /** @description distinct session ids of their events */
            sessions: number;
            /** @description their 10 most frequent event names (labeled ones included), most first */
            top_events: {
                count: number;
                event: string;
            }[];
            /** @description the ids the person was identified by */
            user_ids: string[];
        };
        PersonalApiKey: {
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            id: number;
            /**
             * Format: date-time
             * @description the last request made with the key, to within a minute
             */
            last_used_at: string | null;
            name: string;
            /** @description the eight characters following pp_pk_, to tell keys apart */
            prefix: string;
            /** @description the one project the key reaches, or null for every project of the organization */
            project_id: number | null;
            /** Format: date-time */
            revoked_at: string | null;
            scopes: ("read" | "write" | "admin")[];
            /** @enum {unknown} */
            status: "active" | "revoked" | "expired";
        };
        PersonDeletionJob: {
            /** Format: date-time */
            created_at: string;
            /** @description events deleted, labeled events derived from theirs included; null until the job succeeded */
            deleted_events: number | null;
            /** @description recordings deleted; null until the job succeeded */
            deleted_recordings: number | null;
            /** @description why the job failed; null otherwise */
            error: string | null;
            /**
             * Format: date-time
             * @description null until the job succeeded or failed
             */
            finished_at: string | null;
            /** Format: int64 */
            id: number;
            /** @description how many ids of the person were asked to be deleted (the ids themselves are not kept) */
            ids: number;
            /** @description id of the user who asked for the deletion */
            requested_by: number | null;
            /**
             * Format: date-time
             * @description when the job last started; null while it never ran
             */
            started_at: string | null;
            /**
             * @description queued → running → succeeded or failed; a job running when the server stopped is queued again at its start
             * @enum {unknown}
             */
            state: "queued" | "running" | "succeeded" | "failed";
        };
        PickerCapturePoll: {
            /** Format: date-time */
            captured_at?: string;
            element?: {
                attributes: {
                    [key: string]: string;
                };
                classes: string[];
                id: string | null;
                tag: string;
            };
            /** Format: date-time */
            expires_at: string;
            /** @description whether the picker captured an element under the token yet */
            ready: boolean;
            /** @description a short stable selector for the element (data-pp-*, id, then tags and classes) */
            selector?: string;
            /** @description the element's text (standard privacy mode only) */
            text?: string | null;
            /** @description the page the element was picked on */
            url?: string;
            /** @description that page normalized, as a url_pattern */
            url_pattern?: string | null;
        };
        PickerToken: {
            /**
             * Format: date-time
             * @description 10 minutes after issue
             */
            expires_at: string;
            nonce: string;
            /** @description signed, bound to the project and the user; open the site with ?pp_picker_token=…&pp_picker_nonce=… */
            token: string;
        };
        PosthogCaptureAnswer: {
            accepted: number;
            rejected: {
                /** @enum {unknown} */
                code: "invalid_event" | "event_required" | "identity_required" | "invalid_field" | "too_large" | "identity_conflict" | "replay_disabled";
                /** @description position in `events` (0 for a single item) */
                index: number;
                /** @description names the field, never its value */
                message: string;
            }[];
            /** @constant */
            status: 1;
        };
        Project: {
            /** Format: date-time */
            created_at: string;
            /** @description ISO 4217 code, e.g. USD: the currency of revenue amounts */
            currency: string;
            /** Format: int32 */
            id: number;
            name: string;
            org_id: number;
            timezone: string;
        };
        ProviderEvent: {
            /** @description when the provider created the event (unix seconds); orders the events of one organization */
            created: number;
            data: {
                /** @description end of the period paid for, unix seconds or RFC 3339; required by subscription.activated */
                current_period_end?: number | string;
                /** @description the provider's customer id, kept with the subscription */
                customer?: string;
                /** @description the organization; required by every known type */
                org_id?: number;
                /**
                 * @description required by subscription.activated
                 * @enum {unknown}
                 */
                plan?: "free" | "growth" | "scale";
                /** @description the provider's subscription id, kept with the subscription */
                subscription?: string;
                /** @description end of a trial the provider runs, unix seconds or RFC 3339; required by subscription.trialing */
                trial_end?: number | string;
            };
            /** @description unique per event (`evt_…`); a repeated id is acknowledged and changes nothing */
            id: string;
            /** @description one of subscription.trialing, subscription.activated, subscription.updated, payment.failed, payment.succeeded, subscription.cancelled; any other type is acknowledged and ignored */
            type: string;
        };
        ProviderEventReceipt: {
            /** @constant */
            applied?: true;
            /**
             * @description the id was received before; nothing changed
             * @constant
             */
            duplicate?: true;
            /**
             * @description recorded, not applied
             * @enum {unknown}
             */
            ignored?: "unknown type" | "unknown organization" | "no subscription" | "stale" | "not applicable";
            /**
             * @description the plan after the event (when applied)
             * @enum {unknown}
             */
            plan?: "free" | "growth" | "scale" | null;
            /** @constant */
            received: true;
            /**
             * @description the subscription after the event (when applied)
             * @enum {unknown}
             */
            status?: "trialing" | "pending_review" | "active" | "past_due" | "cancelled";
        };
        /** @description exactly what the insight’s query route answers for its body with the overrides */
        QueryAnswer: components["schemas"]["FunnelResponse"] | components["schemas"]["RetentionResponse"] | components["schemas"]["RetentionActorsResponse"] | components["schemas"]["SegmentationResponse"] | components["schemas"]["LifecycleResponse"] | components["schemas"]["StickinessResponse"] | components["schemas"]["ActivitySummaryResponse"] | components["schemas"]["RevenueSummaryResponse"] | components["schemas"]["PathResponse"] | components["schemas"]["PathsActorsResponse"] | components["schemas"]["CorrelationsResponse"] | components["schemas"]["ActivationDriversResponse"] | components["schemas"]["WebSummaryResponse"];
        /** @description Scalars compare by their text (5 matches "5"). neq, not_in and not_contains also match events without the field; a JSON null counts as absent. */
        QueryFilter: {
            /** @description `url`, `path`, `referrer`, `source`, `sdk_name`, `release` or `props.<key>` (a top-level key, no `*`) */
            field: string;
            /** @enum {unknown} */
            op: "eq" | "neq" | "in" | "not_in" | "contains" | "not_contains" | "starts_with" | "gt" | "gte" | "lt" | "lte" | "exists" | "not_exists";
            /** @description eq/neq: a scalar; in/not_in: a non-empty array; contains/not_contains/starts_with: a string; gt/gte/lt/lte: a number (props.<key> only, JSON numbers only); exists/not_exists: none */
            value?: string | number | boolean | (string | number | boolean)[] | null;
        };
        /** @description a QueryFilter, or `segment:<id>` naming a saved segment of the project (needs the saved_segments entitlement) */
        QueryFilterItem: unknown;
        /** @description all items must match (AND); at most 20 items and 8192 bytes as JSON */
        QueryFilters: components["schemas"]["QueryFilterItem"][];
        RecordingDetail: components["schemas"]["RecordingSummary"] & {
            /** @description the session held more events than are listed */
            events_truncated: boolean;
            /** @description the page views, oldest first */
            pages: {
                /** Format: date-time */
                ts: string;
                url: string | null;
            }[];
            /** @description the tracker's events of the session, oldest first (at most 5000) */
            session_events: {
                event: string;
                props: Record<string, never> | null;
                /** Format: date-time */
                ts: string;
                url: string | null;
                uuid: string;
            }[];
        };
        RecordingsPage: {
            items: components["schemas"]["RecordingSummary"][];
            /** @description opaque; null on the last page */
            next_cursor: string | null;
        };
        RecordingSummary: {
            /** @description the anonymous id the tracker recorded under */
            anonymous_id: string;
            /** @description pp.click events of the session */
            clicks: number;
            /** @description pp.dead_click events of the session */
            dead_clicks: number;
            duration_ms: number;
            /**
             * Format: date-time
             * @description latest recorded event
             */
            ended_at: string;
            /** @description every tracker event of the session (events derived by labeling rules are not counted) */
            events: number;
            /** @description the URL of the session's first page view */
            first_url: string | null;
            /** @description pp.page_view events of the session */
            page_views: number;
            /** @description the actor the recording resolves to now (the user its anonymous id is linked to, else the anonymous id) */
            person: string;
            /** @description pp.rage_click events of the session */
            rage_clicks: number;
            /** @description size of the recorded events as sent; they are stored compressed */
            raw_bytes: number;
            session_id: string;
            /**
             * Format: date-time
             * @description earliest recorded event (time of receipt for a chunk without event times)
             */
            started_at: string;
        };
        ReleaseToken: {
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            id: number;
            name: string;
            prefix: string;
            /** Format: date-time */
            revoked_at: string | null;
            /** @constant */
            scope: "release_markers:write";
            /** @enum {unknown} */
            status: "active" | "revoked" | "expired";
        };
        ReplayRequest: {
            /** @description text (1–200 characters) or a whole number, stored as its decimal string */
            anonymous_id: string | number;
            /** @description a pp_bt_ browser token, for requests that cannot carry headers (sendBeacon) */
            credential?: string;
            /** @description rrweb events; at most 512 KiB serialized (else 413) */
            events: Record<string, never>[];
            /** @description chunk number within the session; a re-sent seq is stored once */
            seq: number;
            /** @description text (1–200 characters) or a whole number, stored as its decimal string */
            session_id: string | number;
            /** @description sending client as name/version when X-PP-Tracker cannot be sent */
            tracker?: string;
        };
        ReplaySettings: {
            /** @description size of their events as sent */
            raw_bytes: number;
            /** @description recordings stored now */
            recordings: number;
            /** @description recordings are deleted once their last activity is older (default 30) */
            replay_retention_days: number;
            /** @description storage they take (compressed) */
            stored_bytes: number;
        };
        ResultOverrides: {
            /**
             * Format: date
             * @description replaces each query’s date_from, a local date YYYY-MM-DD; null for none
             */
            date_from?: string | null;
            /** @description a rolling range replacing each query’s dates, instead of date_from and date_to: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range?: string | null;
            /**
             * Format: date
             * @description replaces each query’s date_to, a local date YYYY-MM-DD; null for none
             */
            date_to?: string | null;
            /** @description added (AND) to each query’s top-level filters; null for none */
            filters?: components["schemas"]["QueryFilters"] | null;
        };
        RetentionActorsRequest: {
            /**
             * Format: date
             * @description a cohort label exactly as the retention response gives it
             */
            cohort: string;
            /** @description opaque cursor from the previous page, bound to this query */
            cursor?: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            filters?: components["schemas"]["QueryFilters"];
            /** @enum {unknown} */
            granularity: "day" | "week";
            /** @default 50 */
            limit?: number;
            /** @description 0 is the whole cohort; at most periods */
            period: number;
            periods: number;
            /** @description an event name, or `any` for every event */
            return_event: string;
            start_event: string;
        };
        RetentionActorsResponse: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            cohort: string;
            items: {
                actor_id: string;
            }[];
            next_cursor: string | null;
            period: number;
        };
        RetentionRequest: {
            compare?: components["schemas"]["CompareRequest"];
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from?: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to?: string;
            filters?: components["schemas"]["QueryFilters"];
            /**
             * @default day
             * @enum {unknown}
             */
            granularity?: "day" | "week";
            /**
             * @description periods after period 0; values has periods + 1 entries
             * @default 7
             */
            periods?: number;
            /**
             * @description an event name, or `any` for every event
             * @default any
             */
            return_event?: string;
            start_event: string;
            /**
             * @default actors
             * @enum {unknown}
             */
            value?: "actors" | "revenue" | "paid_conversion";
        };
        RetentionResponse: {
            compare?: components["schemas"]["RetentionResult"];
            /** @enum {unknown} */
            granularity?: "day" | "week";
            periods?: number;
            /** @enum {unknown} */
            value?: "actors" | "revenue" | "paid_conversion";
        } & components["schemas"]["RetentionResult"];
        RetentionResult: {
            cohorts: {
                /**
                 * Format: date
                 * @description inclusive local date in the project time zone, YYYY-MM-DD
                 */
                cohort: string;
                /** @description value=actors only */
                counts?: (number | null)[];
                size: number;
                /** @description index = period; null before the period starts or for an empty cohort */
                values: (number | null)[];
            }[];
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
        };
        RevenueSummaryRequest: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            filters?: components["schemas"]["QueryFilters"];
        };
        RevenueSummaryResponse: {
            active_actors: number;
            arppu: number | null;
            arpu: number | null;
            /** @description ISO 4217 code of the project currency (project settings), which every amount here is in */
            currency: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            paying_actors: number;
            refund_count: number;
            refunds: number;
            /** @description signed sum */
            revenue: number;
        };
        SavedSegment: {
            /** Format: date-time */
            created_at: string;
            filters: components["schemas"]["QueryFilter"][];
            id: number;
            name: string;
            /** Format: date-time */
            updated_at: string;
        };
        SavedSegmentChange: {
            /** @description Filter objects only (a segment cannot name another); at most 8192 bytes as JSON */
            filters?: components["schemas"]["QueryFilter"][];
            name?: string;
        };
        SavedSegmentCreate: {
            /** @description Filter objects only (a segment cannot name another); at most 8192 bytes as JSON */
            filters: components["schemas"]["QueryFilter"][];
            name: string;
        };
        SegmentationRequest: {
            compare?: components["schemas"]["CompareRequest"];
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from?: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to?: string;
            /** @description an event name, or `any` for every event */
            event: string;
            filters?: components["schemas"]["QueryFilters"];
            group_by?: components["schemas"]["GroupBy"];
            /**
             * @default day
             * @enum {unknown}
             */
            interval?: "hour" | "day" | "week" | "month";
            /** @enum {unknown} */
            metric: "events" | "uniques" | "revenue" | "revenue_avg";
        };
        SegmentationResponse: {
            compare?: components["schemas"]["SegmentationResult"];
            interval?: string;
            metric?: string;
        } & components["schemas"]["SegmentationResult"];
        SegmentationResult: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            series: {
                /** @description `total` without group_by; else the value, `$none` or `$other` */
                name: string;
                points: {
                    /** @description YYYY-MM-DD bucket start, or local RFC 3339 with offset for hours */
                    bucket: string;
                    value: number | null;
                }[];
                value: string | null;
            }[];
        };
        Session: {
            /** Format: date-time */
            created_at: string;
            /** @description the session of the token making this request */
            current: boolean;
            /** Format: uuid */
            id: string;
            ip: string | null;
            /**
             * Format: date-time
             * @description sign-in or latest refresh
             */
            last_seen_at: string;
            user_agent: string | null;
        };
        SharedDashboard: {
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date
             * @description replaces each query’s date_from, a local date YYYY-MM-DD; null for none
             */
            date_from: string | null;
            /** @description a rolling range replacing each query’s dates, instead of date_from and date_to: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range: string | null;
            /**
             * Format: date
             * @description replaces each query’s date_to, a local date YYYY-MM-DD; null for none
             */
            date_to: string | null;
            description: string | null;
            /** @description added (AND) to each query’s top-level filters; null for none */
            filters: components["schemas"]["QueryFilters"] | null;
            /** Format: int64 */
            id: number;
            name: string;
            project_id: number;
            tiles: components["schemas"]["SharedTile"][];
            /** Format: date-time */
            updated_at: string;
        };
        SharedInsight: {
            /** @description a rolling range replacing the query’s own dates when answered: `today`, `yesterday`, `last_N_days` (N ≤ 400), `last_N_weeks` (≤ 57), `last_N_months` (≤ 13), `this_week`, `last_week`, `this_month`, `last_month`, `this_quarter`, `last_quarter`, `this_year`, `last_year` or `since_YYYY-MM-DD`; weeks start on Monday; `this_…` ends today; resolved in the project’s time zone when answered; null for none */
            date_range: string | null;
            description: string | null;
            /** Format: int64 */
            id: number;
            /** @enum {unknown} */
            kind: "funnel" | "retention" | "retention/actors" | "segmentation" | "lifecycle" | "stickiness" | "activity-summary" | "revenue-summary" | "paths" | "paths/actors" | "correlations" | "activation-drivers" | "web";
            name: string;
            query: Record<string, never>;
        };
        SharedTile: {
            /** @description grid rows */
            height: number;
            /** Format: int64 */
            id: number;
            insight: components["schemas"]["SharedInsight"] | null;
            /** @enum {unknown} */
            kind: "insight" | "text";
            /** @description order on the dashboard, from 0 */
            position: number;
            text: string | null;
            /** @description grid columns of 12 */
            width: number;
        };
        SharedView: {
            dashboard?: components["schemas"]["SharedDashboard"];
            insight?: components["schemas"]["SharedInsight"];
            /** @enum {unknown} */
            kind: "dashboard" | "insight";
            project: {
                name: string;
                timezone: string;
            };
        };
        ShareLink: {
            /** Format: date-time */
            created_at: string;
            /** @description null once the user is deleted */
            created_by: components["schemas"]["Author"] | null;
            /** Format: date-time */
            expires_at: string | null;
            /** Format: int64 */
            id: number;
            /**
             * Format: date-time
             * @description the last time the public side opened it
             */
            last_used_at: string | null;
            project_id: number;
            target: {
                /** Format: int64 */
                id: number;
                /** @enum {unknown} */
                kind: "dashboard" | "insight";
                name: string;
            };
        };
        /** @description either dashboard_id or insight_id */
        ShareLinkBody: {
            /** Format: int64 */
            dashboard_id?: number;
            /**
             * Format: date-time
             * @description in the future; absent for a link that does not expire
             */
            expires_at?: string;
            /** Format: int64 */
            insight_id?: number;
        };
        ShareLinkList: {
            /** @description newest first; tokens are never shown again */
            items: components["schemas"]["ShareLink"][];
        };
        /** @description nothing was created; the same answer whether or not an email went out */
        SignupVerificationRequired: {
            /** @description the address (lower case) a code is sent to if a signup is pending for it */
            email: string;
            /** @constant */
            verification_required: true;
        };
        StickinessRequest: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /**
             * @description an event name, or `any` for every event
             * @default any
             */
            event?: string;
            filters?: components["schemas"]["QueryFilters"];
        };
        StickinessResponse: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            distribution: {
                actors: number;
                days: number;
            }[];
            event: string;
        };
        Tile: {
            /** @description grid rows */
            height: number;
            /** Format: int64 */
            id: number;
            insight: components["schemas"]["Insight"] | null;
            /** @enum {unknown} */
            kind: "insight" | "text";
            /** @description order on the dashboard, from 0 */
            position: number;
            text: string | null;
            /** @description grid columns of 12 */
            width: number;
        };
        /** @description either insight_id or text */
        TileBody: {
            /**
             * @description grid rows
             * @default 3
             */
            height?: number;
            /**
             * Format: int64
             * @description a saved insight of the project
             */
            insight_id?: number;
            /** @description plain text; blank lines separate paragraphs */
            text?: string;
            /**
             * @description grid columns of 12
             * @default 6
             */
            width?: number;
        };
        TilePatch: {
            /** @description grid rows */
            height?: number;
            /** @description text tiles only */
            text?: string;
            /** @description grid columns of 12 */
            width?: number;
        };
        TokenResponse: {
            /** @description JWT for `Authorization: Bearer`; lives 15 minutes */
            access_token: string;
            /** @constant */
            expires_in: 900;
            org: {
                id: number;
                name: string;
                /** @enum {unknown} */
                role: "viewer" | "analyst" | "admin" | "owner";
                /**
                 * @description registration responses of trial-first signup only: `trialing`, or held until an SMS confirmation or a manual review
                 * @enum {unknown}
                 */
                trial_state?: "trialing" | "sms_required" | "pending_review";
            };
            /** @constant */
            token_type: "Bearer";
            user: {
                email: string;
                id: number;
                name: string | null;
            };
        };
        /** @description One event. `anonymous_id` or `user_id` is required; a missing `ts` is the time of receipt; `uuid` makes re-sends idempotent. */
        TrackEvent: {
            /** @description text (1–200 characters) or a whole number, stored as its decimal string */
            anonymous_id?: string | number | null;
            /** @description true, sent with a server key: the person agreed again, so ids refused after their deletion are accepted (and no longer refused); ignored otherwise */
            consent?: boolean;
            /** @description autocaptured element chain, target first */
            elements?: Record<string, never>[] | null;
            /** @description event name, e.g. pp.page_view or signup */
            event: string;
            /** @description event properties (JSON, at most 65536 bytes, 16 levels); props.revenue is read as a signed number */
            props?: Record<string, never> | null;
            referrer?: string | null;
            /** @description the release of the sending application */
            release?: string | null;
            /** @description text (1–200 characters) or a whole number, stored as its decimal string */
            session_id?: string | number | null;
            /**
             * Format: date-time
             * @description client time (RFC 3339, from 1970-01-02T00:00:00.000Z and before 2999-12-31T00:00:00.000Z); more than an hour ahead of the server it is stored but marked invalid
             */
            ts?: string;
            url?: string | null;
            /** @description text (1–200 characters) or a whole number, stored as its decimal string */
            user_id?: string | number | null;
            /** @description client-chosen id (8-4-4-4-12 hex digits); an event whose uuid is already stored for the project is not stored again */
            uuid?: string;
        };
        /** @description Either a batch {events: [...]} of at most 500 events, or one TrackEvent object. A body over 1 MiB or with more events is 413. Each event is checked on its own: defective events are refused in rejected[] while the others are stored. */
        TrackRequest: {
            /** @description a pp_bt_ browser token, for requests that cannot carry headers (sendBeacon) */
            credential?: string;
            events?: unknown[];
            /** @description sending client as name/version when X-PP-Tracker cannot be sent */
            tracker?: string;
        };
        TrialActivated: {
            org: {
                id: number;
                /** @constant */
                trial_state: "trialing";
            };
            subscription: {
                /** @constant */
                status: "trialing";
                /**
                 * Format: date-time
                 * @description the trial runs its full length from the activation
                 */
                trial_ends_at: string;
                /** Format: date-time */
                trial_started_at: string;
            };
        };
        TrialSmsSent: {
            /**
             * Format: date-time
             * @description the code works until then (10 minutes)
             */
            expires_at: string;
            /** @description the number the code goes to, all but its first two and last two digits masked: `+49*********12` */
            phone_masked: string;
        };
        /** @description Events counted against the limits of a cloud organization (bootstrap `usage` section). */
        UsageSection: {
            events_this_month: number;
            limit: number | null;
            /** @enum {unknown} */
            limit_kind: "trial_total" | "monthly" | null;
            /** @description the calendar month (UTC) counted, e.g. 2026-11 */
            month: string;
            /** @description events ingested since the trial started */
            trial_events: number;
        };
        WebRow: {
            page_views: number;
            value: string | null;
            visitors: number;
            visits: number;
        };
        WebSummaryRequest: {
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /** @description keeps the visits holding at least one event that matches every filter (e.g. props.$country eq DE) */
            filters?: components["schemas"]["QueryFilters"];
            /**
             * @description rows per table
             * @default 10
             */
            limit?: number;
        };
        WebSummaryResponse: {
            /** @description visits by their entry page view's $browser */
            browsers: components["schemas"]["WebRow"][];
            /** @description visits by their entry page view's $utm_campaign */
            campaigns: components["schemas"]["WebRow"][];
            /** @description (now − before) / before per total; null when before is 0 or null */
            change: {
                bounce_rate: number | null;
                page_views: number | null;
                views_per_visit: number | null;
                visit_duration: number | null;
                visitors: number | null;
                visits: number | null;
            };
            /** @description visits by their entry page view's $channel */
            channels: components["schemas"]["WebRow"][];
            /** @description visits by their entry page view's $country */
            countries: components["schemas"]["WebRow"][];
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_from: string;
            /**
             * Format: date
             * @description inclusive local date in the project time zone, YYYY-MM-DD
             */
            date_to: string;
            /** @description visits by their entry page view's $device_type */
            devices: components["schemas"]["WebRow"][];
            /** @description first page view path of each visit */
            entry_pages: components["schemas"]["WebRow"][];
            /** @description last page view path of each visit */
            exit_pages: components["schemas"]["WebRow"][];
            /** @description distinct visitors with an event in the last five minutes (filters apply); not limited by the dates */
            live_visitors: number;
            /** @description visits by their entry page view's $os */
            operating_systems: components["schemas"]["WebRow"][];
            /** @description page paths by visitors, with their page views */
            pages: components["schemas"]["WebRow"][];
            previous: {
                bounce_rate: number | null;
                /**
                 * Format: date
                 * @description inclusive local date in the project time zone, YYYY-MM-DD
                 */
                date_from: string;
                /**
                 * Format: date
                 * @description inclusive local date in the project time zone, YYYY-MM-DD
                 */
                date_to: string;
                page_views: number;
                views_per_visit: number | null;
                /** @description seconds */
                visit_duration: number | null;
                visitors: number;
                visits: number;
            };
            /** @description visits by their entry page view's $referring_domain */
            referrers: components["schemas"]["WebRow"][];
            /** @description one entry per local day, zero-filled; a visit counts on the day it began */
            series: {
                /**
                 * Format: date
                 * @description inclusive local date in the project time zone, YYYY-MM-DD
                 */
                bucket: string;
                page_views: number;
                visitors: number;
                visits: number;
            }[];
            totals: components["schemas"]["WebTotals"];
        };
        WebTotals: {
            bounce_rate: number | null;
            page_views: number;
            views_per_visit: number | null;
            /** @description seconds */
            visit_duration: number | null;
            visitors: number;
            visits: number;
        };
    };
    responses: {
        /** @description malformed request (unreadable JSON or path id) */
        E400: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description missing, invalid, expired or revoked credentials */
        E401: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description subscription or trial state pauses this capability */
        E402: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description role, entitlement or credential scope insufficient */
        E403: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description resource missing or in another project or organization */
        E404: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description query exceeded its time limit */
        E408: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description conflict with existing state */
        E409: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description gone: removed once past its keeping */
        E410: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description request body over the limit */
        E413: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description validation failed; details.field names the first offending field */
        E422: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description rate limited; Retry-After gives seconds */
        E429: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description not configured on this installation, or not answered by its event engine yet (`engine_unsupported`, details.feature names what) */
        E501: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description not ready */
        E503: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    bootstrap: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description switch to this organization (active membership re-checked); absent keeps the current one */
                    org_id?: number;
                };
            };
        };
        responses: {
            /** @description shell data */
            200: {
                headers: {
                    /** @description `no-store` */
                    "Cache-Control"?: string;
                    /** @description refresh token: `pp_rt=…; Max-Age=2592000; Path=/api/v1/auth; HttpOnly; SameSite=Strict` (+ `Secure` when the base URL is https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerBootstrapResponse"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    acceptInvite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a current six-digit TOTP code or one unused recovery code */
                    mfa_code?: string;
                    name?: string;
                    password?: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description signed in, or a second factor is needed */
            200: {
                headers: {
                    /** @description refresh token: `pp_rt=…; Max-Age=2592000; Path=/api/v1/auth; HttpOnly; SameSite=Strict` (+ `Secure` when the base URL is https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"] | components["schemas"]["MFARequiredResponse"];
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    lookupInvite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description the invitation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the invited address */
                        email: string;
                        /** Format: date-time */
                        expires_at: string;
                        /** @description the inviter's name, else their email; null when their account is gone */
                        invited_by_name: string | null;
                        /** @description no account has the address yet: accepting needs a password */
                        new_account: boolean;
                        org_name: string;
                        /** @enum {string} */
                        role: "viewer" | "analyst" | "admin" | "owner";
                    };
                };
            };
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description a current six-digit TOTP code or one unused recovery code */
                    mfa_code?: string;
                    org_id?: number;
                    password: string;
                };
            };
        };
        responses: {
            /** @description signed in, or a second factor is needed */
            200: {
                headers: {
                    /** @description refresh token: `pp_rt=…; Max-Age=2592000; Path=/api/v1/auth; HttpOnly; SameSite=Strict` (+ `Secure` when the base URL is https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"] | components["schemas"]["MFARequiredResponse"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description signed out */
            204: {
                headers: {
                    /** @description `pp_rt=; Max-Age=0; Path=/api/v1/auth; HttpOnly; SameSite=Strict` */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            403: components["responses"]["E403"];
            429: components["responses"]["E429"];
        };
    };
    oidcCallback: {
        parameters: {
            query?: {
                /** @description required unless the provider sent `error` */
                code?: string;
                /** @description an error code from the provider (the sign-in fails) */
                error?: string;
                /** @description RFC 9207 issuer identification; when present it must be the configured issuer */
                iss?: string;
                /** @description required; without it the answer is 401 like any failed callback */
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description signed in; the browser goes on to the web app */
            303: {
                headers: {
                    /** @description the web-app callback URL (oidc.callback_url) */
                    Location?: string;
                    /** @description the refresh cookie `pp_rt`, exactly as a password login sets it */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["E401"];
            429: components["responses"]["E429"];
        };
    };
    oidcStart: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email?: string;
                    org_id?: number;
                };
            };
        };
        responses: {
            /** @description send the browser to authorization_url */
            200: {
                headers: {
                    /** @description `no-store` */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OIDCStartResponse"];
                };
            };
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    signInOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the options */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        password_reset_email: boolean;
                        /** @enum {unknown} */
                        registration: "open" | "invitation_only" | "trial_first";
                    };
                };
            };
            429: components["responses"]["E429"];
        };
    };
    forgotPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                };
            };
        };
        responses: {
            /** @description accepted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description password changed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    refresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description switch to this organization (active membership re-checked); absent keeps the current one */
                    org_id?: number;
                };
            };
        };
        responses: {
            /** @description new tokens */
            200: {
                headers: {
                    /** @description refresh token: `pp_rt=…; Max-Age=2592000; Path=/api/v1/auth; HttpOnly; SameSite=Strict` (+ `Secure` when the base URL is https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description device fingerprint hash; trial-first mode only */
                    device_fp?: unknown;
                    /** Format: email */
                    email: string;
                    name?: string;
                    /** @description organization name; default "<name>'s organization" */
                    org_name?: string;
                    password: string;
                    /** @description IANA zone from the browser; anything else is ignored */
                    timezone?: unknown;
                    /** @description first-touch UTM parameters as a string map; trial-first mode only */
                    utm?: unknown;
                };
            };
        };
        responses: {
            /** @description signed in */
            201: {
                headers: {
                    /** @description refresh token: `pp_rt=…; Max-Age=2592000; Path=/api/v1/auth; HttpOnly; SameSite=Strict` (+ `Secure` when the base URL is https) */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description trial-first mode: a code and a link were emailed; nothing was created yet */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupVerificationRequired"];
                };
            };
            403: components["responses"]["E403"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    requestSignupDomainReview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the six-digit code from the email; required together with `email` */
                    code?: string;
                    /** @description for the reviewer */
                    company_note?: string;
                    /** Format: email */
                    email?: string;
                    /** @description the link token from the email; replaces `email` plus `code` */
                    token?: string;
                };
            };
        };
        responses: {
            /** @description signed in to the new organization, pending review */
            201: {
                headers: {
                    /** @description refresh token, exactly as set by login and register */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    requestSignupInvite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the six-digit code from the email; required together with `email` */
                    code?: string;
                    /** Format: email */
                    email?: string;
                    /** @description the link token from the email; replaces `email` plus `code` */
                    token?: string;
                };
            };
        };
        responses: {
            /** @description the owner has been notified */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        owner_notified: true;
                    };
                };
            };
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    resendSignupVerification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description IANA zone for the deadline in the email; anything else is ignored */
                    timezone?: unknown;
                };
            };
        };
        responses: {
            /** @description accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupVerificationRequired"];
                };
            };
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    verifySignup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the six-digit code from the email; required together with `email` */
                    code?: string;
                    /** Format: email */
                    email?: string;
                    /** @description the link token from the email; replaces `email` plus `code` */
                    token?: string;
                };
            };
        };
        responses: {
            /** @description signed in to the new organization */
            201: {
                headers: {
                    /** @description refresh token, exactly as set by login and register */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    sendTrialSmsCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description mobile number in international format, e.g. `+49 151 2345 6712` */
                    phone: string;
                };
            };
        };
        responses: {
            /** @description the code is queued for the SMS gateway */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialSmsSent"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    verifyTrialSmsCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the six-digit code from the SMS */
                    code: string;
                };
            };
        };
        responses: {
            /** @description the trial is active */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialActivated"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    receiveProviderEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex>[,v1=<hex>…]` */
                "PP-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProviderEvent"];
            };
        };
        responses: {
            /** @description received */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderEventReceipt"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    resubscribeEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the token of the link in the email */
                    token: string;
                };
            };
        };
        responses: {
            /** @description subscribed again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description first letter of the address, three asterisks, then the domain: `a***@example.com` */
                        email_masked: string;
                        /** @constant */
                        subscribed: true;
                    };
                };
            };
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    emailSubscriptionState: {
        parameters: {
            query: {
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description first letter of the address, three asterisks, then the domain: `a***@example.com` */
                        email_masked: string;
                        subscribed: boolean;
                    };
                };
            };
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    unsubscribeEmail: {
        parameters: {
            query?: {
                token?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description the token of the link in the email */
                    token?: string;
                };
                "application/x-www-form-urlencoded": {
                    /** @constant */
                    "List-Unsubscribe"?: "One-Click";
                };
            };
        };
        responses: {
            /** @description unsubscribed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description first letter of the address, three asterisks, then the domain: `a***@example.com` */
                        email_masked: string;
                        /** @constant */
                        unsubscribed: true;
                    };
                };
            };
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    healthApi: {
        parameters: {
            query?: {
                /** @description also check both databases */
                ready?: "1" | "true";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description alive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                        version: string;
                    };
                };
            };
            422: components["responses"]["E422"];
            503: components["responses"]["E503"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            401: components["responses"]["E401"];
            429: components["responses"]["E429"];
        };
    };
    updateMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description the caller, with the new name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listPersonalApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the keys, revoked and expired ones included */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["PersonalApiKey"][];
                        /** @description all keys fit one page */
                        next_cursor: null;
                    };
                };
            };
            401: components["responses"]["E401"];
            429: components["responses"]["E429"];
        };
    };
    issuePersonalApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description must be in the future; none: the key lives until revoked
                     */
                    expires_at?: string | null;
                    name: string;
                    /** @description restrict the key to this project */
                    project_id?: number | null;
                    scopes: ("read" | "write" | "admin")[];
                };
            };
        };
        responses: {
            /** @description the key with its value */
            201: {
                headers: {
                    /** @description no-store: the value is shown once */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedPersonalApiKey"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    revokePersonalApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id */
                keyID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    disableMfa: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description a current six-digit TOTP code or one unused recovery code */
                    code: string;
                };
            };
        };
        responses: {
            /** @description MFA disabled; recovery codes deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["E401"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    enableMfa: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description MFA enabled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description each usable once instead of a TOTP code; not shown again */
                        recovery_codes: string[];
                    };
                };
            };
            401: components["responses"]["E401"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    setupMfa: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description secret for an authenticator app */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description otpauth://totp/… for a QR code */
                        otpauth_url: string;
                        /** @description base32 */
                        secret: string;
                    };
                };
            };
            401: components["responses"]["E401"];
            409: components["responses"]["E409"];
            429: components["responses"]["E429"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description changed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["E401"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description sessions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Session"][];
                        next_cursor: null;
                    };
                };
            };
            401: components["responses"]["E401"];
            429: components["responses"]["E429"];
        };
    };
    revokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the document */
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
    updateOrg: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description the organization */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getBilling: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description subscription and usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        billing: components["schemas"]["BillingSection"];
                        usage: components["schemas"]["UsageSection"];
                    };
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    choosePlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {unknown} */
                    plan: "free" | "growth" | "scale";
                };
            };
        };
        responses: {
            /** @description the plan started, or where to pay for it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checkout_url?: string;
                        /** @enum {unknown} */
                        plan?: "free" | "growth" | "scale";
                        /** @constant */
                        subscription?: "active";
                    };
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listInvites: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description invitations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Invite"][];
                        /** @description these lists are short and come whole */
                        next_cursor: null;
                    };
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    createInvite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @enum {unknown} */
                    role: "viewer" | "analyst" | "admin" | "owner";
                };
            };
        };
        responses: {
            /** @description the invitation */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invite"] & {
                        /** @description the accept link; only when the server sends no mail */
                        link?: string;
                    };
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    revokeInvite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                inviteID: number;
                orgID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description withdrawn */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description members, in joining order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Member"][];
                        /** @description these lists are short and come whole */
                        next_cursor: null;
                    };
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
                userID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            429: components["responses"]["E429"];
        };
    };
    changeMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
                userID: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {unknown} */
                    role: "viewer" | "analyst" | "admin" | "owner";
                };
            };
        };
        responses: {
            /** @description the member */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the provider (the client secret is never shown), or that none is configured */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OIDCProvider"] | components["schemas"]["OIDCNotConfigured"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    putOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    client_id: string;
                    /** @description required on the first PUT; absent later, the stored secret is kept */
                    client_secret?: string;
                    /** @description email domains that sign in through this provider, matched exactly (no subdomains); lower-cased */
                    domains: string[];
                    /** @default true */
                    enabled?: boolean;
                    /** @description exactly the `issuer` of the discovery document, e.g. https://sso.example.com/realms/acme */
                    issuer: string;
                    /** @description just-in-time membership: a verified user of an allowed domain who is not a member joins with default_role; off by default */
                    jit?: {
                        /**
                         * @default viewer
                         * @enum {unknown}
                         */
                        default_role?: "viewer" | "analyst" | "admin";
                        enabled: boolean;
                    };
                };
            };
        };
        responses: {
            /** @description saved */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OIDCProvider"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    deleteOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    listProjects: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description projects */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Project"][];
                        /** @description these lists are short and come whole */
                        next_cursor: null;
                    };
                };
            };
            401: components["responses"]["E401"];
            429: components["responses"]["E429"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description ISO 4217 alphabetic code that Intl knows (Intl.supportedValuesOf("currency")), any letter case, stored in capitals; revenue amounts are in it and are never converted
                     * @default USD
                     */
                    currency?: string;
                    name: string;
                    /**
                     * @description IANA time zone, e.g. Europe/Berlin; calendar days in reports follow it
                     * @default UTC
                     */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description the project */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the project */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    deleteProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description ISO 4217 alphabetic code that Intl knows (Intl.supportedValuesOf("currency")), any letter case, stored in capitals; revenue amounts are in it and are never converted */
                    currency?: string;
                    name?: string;
                    /** @description IANA time zone, e.g. Europe/Berlin; calendar days in reports follow it */
                    timezone?: string;
                };
            };
        };
        responses: {
            /** @description the project */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listFormPurges: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the jobs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FormPurgeJobList"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    purgeFormData: {
        parameters: {
            query?: never;
            header: {
                /** @description must be `true`: the purge cannot be undone */
                "X-Confirm-Purge": "true";
            };
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the new job, or the one already queued or running */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FormPurgeJob"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getFormPurge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description purge job id */
                jobID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FormPurgeJob"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    getBehaviorSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BehaviorSettings"];
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    patchBehaviorSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description pp.click, rage and dead clicks */
                    autocapture_clicks?: boolean;
                    /** @description form starts, submits and abandonment; never entered values */
                    autocapture_forms?: boolean;
                    autocapture_hover_intent?: boolean;
                    /** @description scroll depth */
                    autocapture_scroll?: boolean;
                    /** @description section visibility */
                    autocapture_sections?: boolean;
                    /** @description page performance and error diagnostics */
                    diagnostics_enabled?: boolean;
                    /**
                     * @description strict masks all text in recordings and element texts
                     * @enum {unknown}
                     */
                    privacy_mode?: "standard" | "strict";
                    /** @description session recordings; inputs are always masked */
                    replay_enabled?: boolean;
                    /** @description share of sessions recorded, 0..1 (default 1) */
                    replay_sample_rate?: number;
                    /** @description keep each event's client address as props.$ip (off: the address gives the country and is dropped) */
                    store_client_address?: boolean;
                    /** @description query parameter names kept besides the campaign ones, compared with the decoded name exactly; no "&", "=", "#", no duplicates (default []) */
                    url_query_allowlist?: string[];
                    /** @description query strings of stored page and referrer URLs keep only utm_source, utm_medium, utm_campaign, utm_term, utm_content, gclid, fbclid, msclkid and url_query_allowlist (default true); false keeps them whole */
                    url_query_strip?: boolean;
                };
            };
        };
        responses: {
            /** @description the settings after the change */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BehaviorSettings"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    eventCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the catalog */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            count: number;
                            event: string;
                            /**
                             * Format: date-time
                             * @description earliest event time (ts) of the name
                             */
                            first_event_time: string;
                            /**
                             * Format: date-time
                             * @description earliest time of receipt of the name
                             */
                            first_seen: string;
                            /**
                             * Format: date-time
                             * @description latest event time (ts) of the name
                             */
                            last_event_time: string;
                            /**
                             * Format: date-time
                             * @description latest time of receipt of the name
                             */
                            last_seen: string;
                        }[];
                        truncated: boolean;
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    propertyCatalog: {
        parameters: {
            query?: {
                /** @description only events of this name */
                event?: string;
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the catalog */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event: string | null;
                        items: {
                            key: string;
                            /** @description sampled events carrying the key */
                            seen: number;
                            /** @enum {unknown} */
                            type: "string" | "number" | "boolean" | "datetime" | "object" | "array" | "mixed";
                        }[];
                        sampled_events: number;
                        truncated: boolean;
                    };
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    listDashboards: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the dashboards */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardList"];
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    createDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardBody"];
            };
        };
        responses: {
            /** @description the dashboard */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dashboardID: number;
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the dashboard */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    deleteDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dashboardID: number;
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    updateDashboard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dashboardID: number;
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DashboardPatch"];
            };
        };
        responses: {
            /** @description the dashboard */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    addTile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dashboardID: number;
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TileBody"];
            };
        };
        responses: {
            /** @description the tile */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tile"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    deleteTile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dashboardID: number;
                /** @description project id */
                id: number;
                tileID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    updateTile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dashboardID: number;
                /** @description project id */
                id: number;
                tileID: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TilePatch"];
            };
        };
        responses: {
            /** @description the tile */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tile"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    tileResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dashboardID: number;
                /** @description project id */
                id: number;
                tileID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer; X-PP-Cache says hit, miss or bypass */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryAnswer"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description events that resolve to this actor (through identify and alias links) */
                actor_id?: string;
                /** @description alias of anonymous_id; when both are given they must be equal */
                anon_id?: string;
                /** @description events sent with this anonymous id */
                anonymous_id?: string;
                /** @description next_cursor of the previous page; valid only with the same project, view and filters */
                cursor?: string;
                /** @description repeat to match any of the names; view=doctor takes at most one */
                event?: string[];
                /** @description a JSON-encoded array of QueryFilter objects, all of which must match (e.g. [{"field":"props.$country","op":"eq","value":"DE"}]); not with view=doctor */
                filters?: string;
                /** @description time of receipt, inclusive (RFC 3339); required with view=doctor */
                from?: string;
                /** @description only events stored with warnings (doctor view: and refused attempts) */
                invalid_only?: boolean;
                /** @description page size (default 50, at most 500) */
                limit?: number;
                /** @description received (default): newest received first; event_time: newest event time (ts) first. Both break ties by uuid descending; view=doctor takes received only */
                order?: "received" | "event_time";
                /** @description events sent with this release */
                release?: string;
                /** @description events sent by this client (the name part of X-PP-Tracker) */
                sdk_name?: string;
                source?: "browser" | "server" | "import" | "system" | "unknown";
                /** @description time of receipt, exclusive (RFC 3339); required with view=doctor, at most 31 days after from */
                to?: string;
                /** @description events sent with this user id */
                user_id?: string;
                /** @description doctor: Integration Doctor records instead of events */
                view?: "doctor";
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventsPage"];
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    streamEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    listExports: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the exports */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportJobList"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    startExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ExportRequest"];
            };
        };
        responses: {
            /** @description the queued export */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportJob"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                exportID: number;
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the export */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportJob"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    cancelExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                exportID: number;
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the export */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportJob"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    downloadExport: {
        parameters: {
            query: {
                expires: number;
                signature: string;
            };
            header?: never;
            path: {
                exportID: number;
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file (NDJSON, CSV or Parquet) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["E400"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            410: components["responses"]["E410"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listForms: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page; bound to the whole query scope */
                cursor?: string;
                /** @description inclusive local date; give date_from and date_to together (neither: the latest 30 local dates) */
                date_from?: string;
                /** @description inclusive local date; give date_from and date_to together (neither: the latest 30 local dates) */
                date_to?: string;
                /** @description JSON array of at most 20 Filter objects (8192 bytes decoded); saved segments are not accepted */
                filters?: string;
                /** @description page size (default 50, at most 500) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Forms with views, starts, submits, conversion and abandonment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FormsPage"];
                };
            };
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    getFormDetail: {
        parameters: {
            query: {
                /** @description next_cursor of the previous page; bound to the whole query scope */
                cursor?: string;
                /** @description inclusive local date; give date_from and date_to together (neither: the latest 30 local dates) */
                date_from?: string;
                /** @description inclusive local date; give date_from and date_to together (neither: the latest 30 local dates) */
                date_to?: string;
                /** @description JSON array of at most 20 Filter objects (8192 bytes decoded); saved segments are not accepted */
                filters?: string;
                /** @description exact privacy-safe form selector */
                form: string;
                /** @description page size (default 50, at most 500) */
                limit?: number;
                /** @description exact page; without it every page with this form counts */
                url?: string;
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One form's fields ranked by drop-off; never an entered value */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FormDetailPage"];
                };
            };
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    listImports: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the imports */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportJobList"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    startImport: {
        parameters: {
            query: {
                /** @description how the file is written */
                format: "posthog" | "amplitude" | "ndjson" | "csv";
                /** @description csv only: `column=field` (repeat the parameter), field one of uuid, ts, received_at, event, distinct_id, anonymous_id, user_id, session_id, source, sdk_name, sdk_version, key_id, release, url, path, referrer, props, revenue, elements, invalid, invalid_reasons, rule_id, source_uuid, `props.<key>` or `ignore` */
                map?: string[];
                /** @description the file name shown with the job */
                name?: string;
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description the queued import */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                importID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the import */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    cancelImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                importID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the import */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    listInsights: {
        parameters: {
            query?: {
                /** @description only insights of this kind */
                kind?: "funnel" | "retention" | "retention/actors" | "segmentation" | "lifecycle" | "stickiness" | "activity-summary" | "revenue-summary" | "paths" | "paths/actors" | "correlations" | "activation-drivers" | "web";
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the insights */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsightList"];
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    createInsight: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InsightBody"];
            };
        };
        responses: {
            /** @description the insight */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Insight"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getInsight: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                insightID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the insight */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Insight"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    deleteInsight: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                insightID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    updateInsight: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                insightID: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InsightPatch"];
            };
        };
        responses: {
            /** @description the insight */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Insight"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    insightResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                insightID: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ResultOverrides"];
            };
        };
        responses: {
            /** @description the answer; X-PP-Cache says hit, miss or bypass */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryAnswer"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    listIngestKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the keys, revoked and expired ones included */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["IngestKey"][];
                        /** @description all records fit one page */
                        next_cursor: null;
                    };
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    issueIngestKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description host names the token may be used from (Origin, else Referer host): `example.com` matches exactly, `*.example.com` every subdomain */
                    domains?: string[];
                    /**
                     * Format: date-time
                     * @description must be in the future
                     */
                    expires_at?: string;
                    name: string;
                    scopes?: ("events:write" | "identify:write" | "replay:write" | "capture:write")[];
                    /** @enum {unknown} */
                    type: "browser" | "server";
                };
            };
        };
        responses: {
            /** @description the key with its value */
            201: {
                headers: {
                    /** @description no-store: the value is shown once */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedIngestKey"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    revokeIngestKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description ingestion key id */
                keyID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    rotateIngestKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description ingestion key id */
                keyID: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description host names the token may be used from (Origin, else Referer host): `example.com` matches exactly, `*.example.com` every subdomain */
                    domains?: string[];
                    /**
                     * Format: date-time
                     * @description must be in the future
                     */
                    expires_at?: string;
                    /** @enum {unknown} */
                    type?: "browser" | "server";
                };
            };
        };
        responses: {
            /** @description the replacement with its value */
            201: {
                headers: {
                    /** @description no-store: the value is shown once */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedIngestKey"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listLabeledEventRules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the rules */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabeledEventRuleList"];
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    createLabeledEventRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LabeledEventRuleBody"];
            };
        };
        responses: {
            /** @description the rule */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabeledEventRule"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getLabeledEventRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description rule id */
                ruleID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the rule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabeledEventRule"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    deleteLabeledEventRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description rule id */
                ruleID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleting */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            429: components["responses"]["E429"];
        };
    };
    replaceLabeledEventRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description rule id */
                ruleID: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LabeledEventRuleBody"];
            };
        };
        responses: {
            /** @description the rule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabeledEventRule"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    disableLabeledEventRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description rule id */
                ruleID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            429: components["responses"]["E429"];
        };
    };
    enableLabeledEventRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description rule id */
                ruleID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description done */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            429: components["responses"]["E429"];
        };
    };
    issuePickerToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PickerToken"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    pollPickerCapture: {
        parameters: {
            query: {
                /** @description the picker token (redacted from logs) */
                token: string;
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the capture */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PickerCapturePoll"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    previewLabeledEventRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LabeledEventPreviewBody"];
            };
        };
        responses: {
            /** @description the count */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabeledEventPreview"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    getPageBehavior: {
        parameters: {
            query: {
                /** @description next_cursor of the previous page; bound to the whole query scope */
                cursor?: string;
                /** @description inclusive local date; give date_from and date_to together (neither: the latest 30 local dates) */
                date_from?: string;
                /** @description inclusive local date; give date_from and date_to together (neither: the latest 30 local dates) */
                date_to?: string;
                /** @description JSON array of at most 20 Filter objects (8192 bytes decoded); saved segments are not accepted */
                filters?: string;
                /** @description page size (default 50, at most 500) */
                limit?: number;
                /** @description the page; normalized before matching */
                url: string;
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page: figures, click heatmap and clicked elements */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BehaviorPage"];
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    listBehaviorUrls: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page; bound to the whole query scope */
                cursor?: string;
                /** @description inclusive local date; give date_from and date_to together (neither: the latest 30 local dates) */
                date_from?: string;
                /** @description inclusive local date; give date_from and date_to together (neither: the latest 30 local dates) */
                date_to?: string;
                /** @description JSON array of at most 20 Filter objects (8192 bytes decoded); saved segments are not accepted */
                filters?: string;
                /** @description page size (default 50, at most 500) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pages ordered by event count, with click, rage/dead-click and scroll figures */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BehaviorURLsPage"];
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    getPathCleaning: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the rules */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathCleaning"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    setPathCleaning: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PathCleaningChange"];
            };
        };
        responses: {
            /** @description the rules */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathCleaning"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    testPathCleaning: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PathCleaningTestRequest"];
            };
        };
        responses: {
            /** @description the trace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathCleaningTrace"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    getPersonDeletion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description deletion job id */
                jobID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonDeletionJob"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    getPerson: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description any id of the person: a user id, an anonymous id or a distinct id (URL-encoded) */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the person */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Person"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    deletePerson: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description any id of the person: a user id, an anonymous id or a distinct id (URL-encoded) */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the queued job */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonDeletionJob"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    exportPerson: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description any id of the person: a user id, an anonymous id or a distinct id (URL-encoded) */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the person's data */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryActivationDrivers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ActivationDriversRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivationDriversResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryActivitySummary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ActivitySummaryRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivitySummaryResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryCorrelations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CorrelationsRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CorrelationsResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryFunnel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FunnelRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FunnelResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryLifecycle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LifecycleRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LifecycleResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryPaths: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PathsRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryPathsActors: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PathsActorsRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathsActorsResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetentionRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryRetentionActors: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetentionActorsRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionActorsResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryRevenueSummary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RevenueSummaryRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevenueSummaryResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    querySegmentation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SegmentationRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SegmentationResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryStickiness: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StickinessRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StickinessResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    queryWebSummary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebSummaryRequest"];
            };
        };
        responses: {
            /** @description the result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebSummaryResponse"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    listRecordings: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description only recordings with a dead click */
                dead_clicks?: boolean;
                /** @description recordings whose session holds an event of this name */
                event?: string;
                /** @description recordings that started at or after (RFC 3339) */
                from?: string;
                /** @description page size (default 50) */
                limit?: number;
                /** @description seconds, inclusive; not below min_duration */
                max_duration?: number;
                /** @description seconds, inclusive */
                min_duration?: number;
                /** @description recordings of this actor (through identify and alias links) */
                person?: string;
                /** @description only recordings with a rage click */
                rage_clicks?: boolean;
                /** @description the recording of this session id */
                session?: string;
                /** @description recordings that started before (RFC 3339); later than from */
                to?: string;
                /** @description recordings with a page view whose URL contains this text */
                url?: string;
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecordingsPage"];
                };
            };
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    getRecording: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description the recorded session's id */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the recording */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecordingDetail"];
                };
            };
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    streamRecording: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description the recorded session's id */
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    recordDeployMarker: {
        parameters: {
            query?: never;
            header: {
                "Idempotency-Key": string;
            };
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    commit?: string;
                    /**
                     * Format: date-time
                     * @description default: the time the marker is recorded
                     */
                    deployed_at?: string;
                    description?: string;
                    environment?: string;
                    release: string;
                    /** Format: uri */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description the marker recorded earlier under this Idempotency-Key with the same body */
            200: {
                headers: {
                    "Idempotency-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeployMarker"];
                };
            };
            /** @description marker created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeployMarker"];
                };
            };
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listReleaseTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the tokens */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ReleaseToken"][];
                        /** @description all records fit one page */
                        next_cursor: null;
                    };
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    issueReleaseToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description must be in the future
                     */
                    expires_at?: string;
                    name: string;
                };
            };
        };
        responses: {
            /** @description the token with its value */
            201: {
                headers: {
                    /** @description no-store: the value is shown once */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedReleaseToken"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    revokeReleaseToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                /** @description release token id */
                tokenID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    getReplaySettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplaySettings"];
                };
            };
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    updateReplaySettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    replay_retention_days: number;
                };
            };
        };
        responses: {
            /** @description the settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplaySettings"];
                };
            };
            401: components["responses"]["E401"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    listSegments: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description one page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["SavedSegment"][];
                        next_cursor: string | null;
                    };
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    createSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SavedSegmentCreate"];
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedSegment"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    getSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                segmentID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the segment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedSegment"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    deleteSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                segmentID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    updateSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                segmentID: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SavedSegmentChange"];
            };
        };
        responses: {
            /** @description the segment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedSegment"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            409: components["responses"]["E409"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    listShareLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the links */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareLinkList"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    createShareLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShareLinkBody"];
            };
        };
        responses: {
            /** @description the link and its token */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedShareLink"];
                };
            };
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
        };
    };
    revokeShareLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description project id */
                id: number;
                linkID: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    openSharedLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the shared view */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedView"];
                };
            };
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    sharedInsightResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer; X-PP-Cache says hit, miss or bypass */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryAnswer"];
                };
            };
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    sharedTileResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tileID: number;
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the answer; X-PP-Cache says hit, miss or bypass */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryAnswer"];
                };
            };
            400: components["responses"]["E400"];
            402: components["responses"]["E402"];
            403: components["responses"]["E403"];
            404: components["responses"]["E404"];
            408: components["responses"]["E408"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
        };
    };
    posthogRemoteConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the key posthog-js was given */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["E400"];
        };
    };
    posthogRemoteConfigScript: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the key posthog-js was given */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/javascript": string;
                };
            };
            400: components["responses"]["E400"];
        };
    };
    posthogCapture_batch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "*/*": unknown;
            };
        };
        responses: {
            /** @description stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PosthogCaptureAnswer"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            503: components["responses"]["E503"];
        };
    };
    posthogCapture_capture: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "*/*": unknown;
            };
        };
        responses: {
            /** @description stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PosthogCaptureAnswer"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            503: components["responses"]["E503"];
        };
    };
    posthogFlags_decideGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description no flags */
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
    posthogFlags_decidePost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description no flags */
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
    posthogCapture_e: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "*/*": unknown;
            };
        };
        responses: {
            /** @description stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PosthogCaptureAnswer"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            503: components["responses"]["E503"];
        };
    };
    posthogFlags_flagsGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description no flags */
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
    posthogFlags_flagsPost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description no flags */
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
    posthogCapture_i_v0_e: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "*/*": unknown;
            };
        };
        responses: {
            /** @description stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PosthogCaptureAnswer"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            503: components["responses"]["E503"];
        };
    };
    posthogCapture_track: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "*/*": unknown;
            };
        };
        responses: {
            /** @description stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PosthogCaptureAnswer"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            503: components["responses"]["E503"];
        };
    };
    alias: {
        parameters: {
            query?: {
                /** @description deprecated: legacy pp_wk_ keys only (answered with Deprecation: true); browser and server keys here are refused */
                key?: string;
            };
            header?: {
                /** @description sending client as name/version, e.g. pp-browser/0.6.5; beacons put it in the body field `tracker` instead */
                "X-PP-Tracker"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AliasRequest"];
                "text/plain": components["schemas"]["AliasRequest"];
            };
        };
        responses: {
            /** @description stored (durably) before this answer */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            503: components["responses"]["E503"];
        };
    };
    capture: {
        parameters: {
            query?: {
                /** @description deprecated: legacy pp_wk_ keys only (answered with Deprecation: true); browser and server keys here are refused */
                key?: string;
            };
            header?: {
                /** @description sending client as name/version, e.g. pp-browser/0.6.5; beacons put it in the body field `tracker` instead */
                "X-PP-Tracker"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaptureRequest"];
                "text/plain": components["schemas"]["CaptureRequest"];
            };
        };
        responses: {
            /** @description stored (durably) before this answer */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
            503: components["responses"]["E503"];
        };
    };
    publicCollectionConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                prefix: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionConfig"];
                };
            };
            404: components["responses"]["E404"];
            429: components["responses"]["E429"];
        };
    };
    healthIngest: {
        parameters: {
            query?: {
                /** @description also check both databases */
                ready?: "1" | "true";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description alive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                        version: string;
                    };
                };
            };
            422: components["responses"]["E422"];
            503: components["responses"]["E503"];
        };
    };
    identify: {
        parameters: {
            query?: {
                /** @description deprecated: legacy pp_wk_ keys only (answered with Deprecation: true); browser and server keys here are refused */
                key?: string;
            };
            header?: {
                /** @description sending client as name/version, e.g. pp-browser/0.6.5; beacons put it in the body field `tracker` instead */
                "X-PP-Tracker"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IdentifyRequest"];
                "text/plain": components["schemas"]["IdentifyRequest"];
            };
        };
        responses: {
            /** @description stored (durably) before this answer */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            503: components["responses"]["E503"];
        };
    };
    replay: {
        parameters: {
            query?: {
                /** @description deprecated: legacy pp_wk_ keys only (answered with Deprecation: true); browser and server keys here are refused */
                key?: string;
            };
            header?: {
                /** @description sending client as name/version, e.g. pp-browser/0.6.5; beacons put it in the body field `tracker` instead */
                "X-PP-Tracker"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplayRequest"];
                "text/plain": components["schemas"]["ReplayRequest"];
            };
        };
        responses: {
            /** @description stored (durably) before this answer */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            501: components["responses"]["E501"];
            503: components["responses"]["E503"];
        };
    };
    getTrackerFile: {
        parameters: {
            query?: never;
            header?: {
                "If-None-Match"?: string;
            };
            path: {
                /** @description tracker.js, replay.js, diagnostics.js, picker.js or manifest.json */
                file: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file, byte for byte */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                    "text/javascript": string;
                };
            };
            /** @description not modified */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            404: components["responses"]["E404"];
        };
    };
    getTrackerShortUrl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the current core */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                    "text/javascript": string;
                };
            };
            404: components["responses"]["E404"];
        };
    };
    track: {
        parameters: {
            query?: {
                /** @description deprecated: legacy pp_wk_ keys only (answered with Deprecation: true); browser and server keys here are refused */
                key?: string;
            };
            header?: {
                /** @description sending client as name/version, e.g. pp-browser/0.6.5; beacons put it in the body field `tracker` instead */
                "X-PP-Tracker"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TrackRequest"];
                "text/plain": components["schemas"]["TrackRequest"];
            };
        };
        responses: {
            /** @description stored (durably) before this answer */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestAccepted"];
                };
            };
            400: components["responses"]["E400"];
            401: components["responses"]["E401"];
            403: components["responses"]["E403"];
            413: components["responses"]["E413"];
            422: components["responses"]["E422"];
            429: components["responses"]["E429"];
            503: components["responses"]["E503"];
        };
    };
}
