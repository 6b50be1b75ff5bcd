// LTI platform storage (docs/lti.md, Login CSRF). The login page puts its value in the LMS's storage frame, then goes
// on to the LMS (the form's GET); the launch page reads the value back and posts it with its session, which opens
// only if the value is its login's: a launch opens only in the browser that started its login. The form carries
// what to do in its data-* attributes: a data-value to put, or none to read.
(function () {
  var form = document.getElementById("platform-storage");
  var status = document.getElementById("platform-storage-status");
  if (!form) {
    return;
  }
  var target = form.dataset.target;
  var origin = form.dataset.origin;
  var value = form.dataset.value;
  var subject = value ? "lti.put_data" : "lti.get_data";
  var messageId = subject + "-" + Date.now() + "-" + Math.random().toString(36).slice(2);
  var lms = window.opener || window.parent;
  var frame = target === "_parent" ? lms : lms.frames[target];
  function failed(reason) {
    status.textContent = reason + " Launch the tool again from your course.";
  }
  if (!frame || lms === window) {
    failed("The LMS's storage (" + target + ") is not there.");
    return;
  }
  var timer = setTimeout(function () {
    failed("The LMS did not answer.");
  }, 10000);
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.origin !== origin || !data || typeof data !== "object" || data.subject !== subject + ".response"
        || data.message_id !== messageId) {
      return;
    }
    clearTimeout(timer);
    if (value) {
      if (data.error) {
        failed("The LMS did not keep the sign-in (" + (data.error.message || data.error.code) + ").");
        return;
      }
    } else {
      // no value (none kept in this browser) is posted too: the service then ends the launch and says why
      form.elements.value.value = data.error || typeof data.value !== "string" ? "" : data.value;
    }
    form.submit();
  });
  var message = { subject: subject, message_id: messageId, key: form.dataset.key };
  if (value) {
    message.value = value;
  }
  frame.postMessage(message, origin);
})();
