/** What the submission module writes as JSON, for whoever reads it: a submission's REST body, the same shape in a user's data export and in the submission webhooks' payloads, and the module's exporter and webhooks that send it. */
@org.jspecify.annotations.NullMarked
package com.chatreview.submission.json;
