-- A given-up score its tenant sent again (POST /api/v1/lti/platforms/{id}/scores/resend): its trying time
-- (lti.score-give-up-after) counts from then.
ALTER TABLE lti_scores ADD COLUMN resent_at timestamptz;

-- Delivered and given-up scores are kept for lti.score-retention, then deleted.
CREATE INDEX lti_scores_settled ON lti_scores ((coalesce(delivered_at, given_up_at)))
    WHERE delivered_at IS NOT NULL OR given_up_at IS NOT NULL;
