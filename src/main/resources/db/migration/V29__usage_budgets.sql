-- AI budgets (docs/api.md, Usage and budgets). A tenant's budgets: the operator's monthly ones (PUT /admin/v1/tenants/{id}/budget)
-- and the tenant's own per-user daily cap (PUT /api/v1/usage/limits); NULL: unlimited. No row: all unlimited.
CREATE TABLE usage_budgets (
    tenant_id              uuid PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
    monthly_tokens         bigint  CHECK (monthly_tokens IS NULL OR monthly_tokens >= 0),
    monthly_reviews        bigint  CHECK (monthly_reviews IS NULL OR monthly_reviews >= 0),
    per_user_daily_tokens  bigint  CHECK (per_user_daily_tokens IS NULL OR per_user_daily_tokens >= 0)
);

-- What a tenant spent in a calendar month (UTC) and what each user spent in a day (UTC): running sums of ai_usage,
-- kept in the statement that records a reply, so that a budget is checked with one row's read however many
-- replies the month holds.
CREATE TABLE usage_months (
    tenant_id  uuid   NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    month      date   NOT NULL,
    tokens     bigint NOT NULL,
    reviews    bigint NOT NULL,
    PRIMARY KEY (tenant_id, month)
);

CREATE TABLE usage_user_days (
    tenant_id  uuid   NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    user_id    text   NOT NULL,
    day        date   NOT NULL,
    tokens     bigint NOT NULL,
    PRIMARY KEY (tenant_id, user_id, day)
);

-- The usage.budget_threshold events sent: once per budget, threshold and month.
CREATE TABLE usage_thresholds_reached (
    tenant_id  uuid    NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    month      date    NOT NULL,
    budget     text    NOT NULL CHECK (budget IN ('monthly_tokens', 'monthly_reviews')),
    percent    integer NOT NULL CHECK (percent IN (80, 100)),
    PRIMARY KEY (tenant_id, month, budget, percent)
);

INSERT INTO usage_months (tenant_id, month, tokens, reviews)
SELECT tenant_id, date_trunc('month', occurred_at AT TIME ZONE 'UTC')::date, sum(total_tokens),
       count(*) FILTER (WHERE kind = 'review')
FROM ai_usage GROUP BY 1, 2;

INSERT INTO usage_user_days (tenant_id, user_id, day, tokens)
SELECT tenant_id, user_id, (occurred_at AT TIME ZONE 'UTC')::date, sum(total_tokens)
FROM ai_usage GROUP BY 1, 2, 3;

-- A review whose job found the budget spent waits, and runs by itself once the budget allows.
ALTER TABLE submissions DROP CONSTRAINT submissions_review_state_check;
ALTER TABLE submissions ADD CONSTRAINT submissions_review_state_check
    CHECK (review_state IN ('pending', 'waiting_for_budget', 'done', 'failed'));
