/** The LMS platforms a tenant trusts: registered by hand or by LTI Dynamic Registration, stored per tenant. */
@org.jspecify.annotations.NullMarked
package com.chatreview.lti.platforms;
