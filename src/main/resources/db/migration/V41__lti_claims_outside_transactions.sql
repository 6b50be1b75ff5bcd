-- The tool asks a platform over HTTP with no transaction open (a slow LMS must not hold the service's connections):
-- what is being asked is claimed for a while instead of locked.

-- A registration link being used: claimed while the LMS's configuration is read and the tool registered there.
ALTER TABLE lti_registration_links
    ADD COLUMN claim         uuid,
    ADD COLUMN claimed_until timestamptz;

-- A link's gradebook column being found or made (line_item_url NULL until it is): claimed while the platform is
-- asked; after a failure, the claim's end is when the next launch asks again, and last_error says why.
ALTER TABLE lti_link_line_items
    ALTER COLUMN line_item_url DROP NOT NULL,
    ADD COLUMN claim         uuid,
    ADD COLUMN claimed_until timestamptz,
    ADD COLUMN last_error    text;
