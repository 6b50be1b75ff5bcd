-- The reviews waiting for a budget: found by tenant when its budget is set, and counted for the operator's gauge,
-- without reading every submission.
CREATE INDEX submissions_waiting_for_budget ON submissions (tenant_id) WHERE review_state = 'waiting_for_budget';
