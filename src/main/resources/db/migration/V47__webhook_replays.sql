-- A replay (POST .../deliveries/{id}/replay) is an old event sent again on request, due at once: it is sent outside
-- the order of its key's events, neither waiting for the deliveries of its chat or submission still pending (one
-- waiting hours for its next retry) nor holding them up (docs/api.md, Webhooks).
ALTER TABLE webhook_deliveries ADD COLUMN replay_of uuid;
