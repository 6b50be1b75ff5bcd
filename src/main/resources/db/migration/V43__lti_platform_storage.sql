-- Launches bound to the browser that started their login, through the LMS's platform storage (docs/lti.md, Login
-- CSRF): once a platform's login has named a storage target, each of its logins must, and the launch's session
-- opens only when the browser shows the value its login page put there.
ALTER TABLE lti_platforms ADD COLUMN platform_storage_seen_at timestamptz;

-- A session whose launch has yet to be shown to come to the browser of its login: its pages do not open until then.
ALTER TABLE lti_sessions ADD COLUMN binding_hash bytea;
