package com.chatreview.lti.web;

import com.chatreview.lti.launch.LtiRequestLimits;
import com.chatreview.lti.launch.LtiSession;
import com.chatreview.lti.launch.LtiSessions;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Admits each request of the tool's endpoints as its handler says ({@link Admitted}), before anything of its body
 * is read: the multipart body of a hand-in is parsed only when the handler asks for its files (parts are resolved
 * lazily), after this. A page's session is found here, from the {@code session} query parameter (a form's action
 * carries it), or from a form body that is not multipart; the handler gets it as the request attribute
 * {@link #SESSION}.
 */
class LtiRequestLimiter implements HandlerInterceptor {

    /** The request attribute of the page's session (a constant: handlers name it in an annotation). */
    static final String SESSION = "com.chatreview.lti.LtiSession";

    /** The request attribute that says a refusal of the request is one of its address's failures, not yet counted. */
    private static final String FAILURES_COUNT = "com.chatreview.lti.failuresCount";

    /** What a request of the handler is charged to ({@link LtiRequestLimits}). */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @interface Admitted {
        By value();
    }

    enum By {
        /** a login: its client address's failures and logins */
        LOGIN,
        /** a launch, or another request of no session: its client address's failures */
        ADDRESS,
        /** a page of a launch's session: the session, which must be open */
        SESSION,
        /** a hand-in: the session, the learner's hand-ins of the homework and the tenant's REST quota */
        HAND_IN
    }

    private final LtiRequestLimits admission;
    private final LtiSessions sessions;

    LtiRequestLimiter(LtiRequestLimits admission, LtiSessions sessions) {
        this.admission = admission;
        this.sessions = sessions;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        Admitted admitted = handler instanceof HandlerMethod method ? method.getMethodAnnotation(Admitted.class) : null;
        if (admitted == null) {
            return true;
        }
        By by = admitted.value();
        if (by == By.LOGIN || by == By.ADDRESS) {
            request.setAttribute(FAILURES_COUNT, true);
        }
        if (by == By.LOGIN) {
            admission.login(request.getRemoteAddr());
            return true;
        }
        if (by == By.ADDRESS) {
            admission.address(request.getRemoteAddr());
            return true;
        }
        LtiSession session = sessions.require(sessionToken(request));
        admission.session(session);
        if (by == By.HAND_IN) {
            admission.handIn(session);
        }
        request.setAttribute(SESSION, session);
        return true;
    }

    /**
     * A login or launch refused ({@code 400}: forged, replayed, unknown) is one of its address's failures, counted
     * before its page is written: a client that reads the refusal and tries again at once must find it counted (the
     * page is sent as it is written, before {@link #afterCompletion} runs). The refusal's handler calls this.
     */
    static void refused(HttpServletRequest request, LtiRequestLimits admission) {
        if (Boolean.TRUE.equals(request.getAttribute(FAILURES_COUNT))) {
            request.setAttribute(FAILURES_COUNT, false);
            admission.failed(request.getRemoteAddr());
        }
    }

    /**
     * A {@code 400} of a login or launch that no refusal's handler counted (a parameter missing, say) is counted here.
     * One the service could not finish ({@code 503}: a platform unreachable) is not the address's doing.
     */
    @Override
    public void afterCompletion(
            HttpServletRequest request, HttpServletResponse response, Object handler, @Nullable Exception failure) {
        if (response.getStatus() == HttpServletResponse.SC_BAD_REQUEST) {
            refused(request, admission);
        }
    }

    /** The query's {@code session} first; a form body's only when it is not multipart (that one is not read yet). */
    private static @Nullable String sessionToken(HttpServletRequest request) {
        String query = request.getQueryString();
        if (query != null) {
            for (String pair : query.split("&")) {
                int equals = pair.indexOf('=');
                if (equals > 0 && pair.substring(0, equals).equals("session")) {
                    try {
                        return URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
                    } catch (IllegalArgumentException malformed) {
                        return null;
                    }
                }
            }
        }
        String contentType = request.getContentType();
        if (contentType != null && contentType.toLowerCase().startsWith(MediaType.MULTIPART_FORM_DATA_VALUE)) {
            return null;
        }
        return request.getParameter("session");
    }
}
