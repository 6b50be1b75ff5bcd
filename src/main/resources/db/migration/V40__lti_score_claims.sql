-- A node that takes a score to send claims it with a token of its own: what it then writes of the score (delivered,
-- to retry, given up) holds only while the claim is still its own. A node whose lease ended while it was sending
-- (stalled, or paused in a long GC) finds the score claimed by another and leaves it alone.
ALTER TABLE lti_scores ADD COLUMN claimed_by uuid;
