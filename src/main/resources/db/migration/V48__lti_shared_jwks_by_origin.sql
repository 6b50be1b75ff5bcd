-- The trust of /lti/jwks kept by the registrations made before each had its own keys (V44) goes to the first tenant
-- of a client id at a token endpoint's origin (scheme, host and port), for all its registrations of that client: not
-- to the first of an exact URL. Another tenant's registration of the same LMS's client, its URL written another way
-- (another case, an explicit :443, a trailing /) or made between two of the first tenant's, keeps none.
WITH origins AS (
    SELECT id, tenant_id, client_id, created_at,
           regexp_replace(lower(substring(auth_token_url from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*')),
                          '^(https://[^/]*):443$|^(http://[^/]*):80$', '\1\2') AS origin
    FROM lti_platforms),
holders AS (
    SELECT DISTINCT ON (client_id, origin) client_id, origin, tenant_id
    FROM origins
    ORDER BY client_id, origin, created_at, id)
UPDATE lti_platforms p SET shared_jwks = false
FROM origins o JOIN holders h ON h.client_id = o.client_id AND h.origin IS NOT DISTINCT FROM o.origin
WHERE p.id = o.id AND p.shared_jwks AND h.tenant_id <> p.tenant_id;
