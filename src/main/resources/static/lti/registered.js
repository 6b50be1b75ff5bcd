// Tells the LMS that opened the registration (in a window or a frame) that it may close it (LTI Dynamic Registration).
(window.opener || window.parent).postMessage({ subject: "org.imsglobal.lti.close" }, "*");
