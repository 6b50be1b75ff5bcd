package com.chatreview.chatui;

import com.chatreview.chat.Chat;
import com.chatreview.chat.ChatEntry;
import com.chatreview.chat.ChatErrors.ChatNotFound;
import com.chatreview.chat.ChatId;
import com.chatreview.chat.ChatManagement;
import com.chatreview.chat.ChatMessage;
import com.chatreview.chat.ChatsById;
import com.chatreview.chatui.ChatUiErrors.EmbedTokenRequired;
import com.chatreview.database.Sql;
import com.chatreview.kernel.FieldProblem;
import com.chatreview.kernel.Ids;
import com.chatreview.kernel.InvalidInput;
import com.chatreview.kernel.Page;
import com.chatreview.kernel.PageRequest;
import com.chatreview.kernel.ServiceError;
import com.chatreview.ratelimit.Quota;
import com.chatreview.ratelimit.RateLimitDecision;
import com.chatreview.ratelimit.RateLimited;
import com.chatreview.ratelimit.RateLimiter;
import com.chatreview.tenancy.Authenticator;
import com.chatreview.tenancy.TenantId;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The chat page's side of the service (docs/chat-ui.md): which chat a page link opens and whether the tenant lets
 * it, the history the page shows, embed tokens, and the tenant's page settings.
 */
@Service
public class ChatUi {

    private static final int HISTORY_PAGE = PageRequest.MAX_LIMIT;
    /** Messages one history answer holds at most: enough for any real chat at once, bounded for the rest. */
    public static final int HISTORY_LIMIT = 500;
    /** How many links a node remembers as valid (about 100 bytes each). */
    private static final int KNOWN_LINKS = 100_000;

    private final ChatManagement chats;
    private final ChatsById byId;
    private final EmbedPolicies policies;
    private final EmbedTokens tokens;
    private final RateLimiter limiter;
    private final Authenticator authenticator;
    private final ChatUiSettings settings;
    private final List<ChatReviews> reviews;
    /** Chats opened by their link lately on this node: links known to be valid, heard past the failure budget. */
    private final Cache<ChatId, Boolean> knownLinks = Caffeine.newBuilder()
            .maximumSize(KNOWN_LINKS)
            .expireAfterAccess(Duration.ofDays(1))
            .build();

    private final Clock clock;

    ChatUi(
            ChatManagement chats,
            ChatsById byId,
            EmbedPolicies policies,
            EmbedTokens tokens,
            RateLimiter limiter,
            Authenticator authenticator,
            ChatUiSettings settings,
            List<ChatReviews> reviews,
            Clock clock) {
        this.clock = clock;
        this.reviews = List.copyOf(reviews);
        this.byId = byId;
        this.chats = chats;
        this.policies = policies;
        this.tokens = tokens;
        this.limiter = limiter;
        this.authenticator = authenticator;
        this.settings = settings;
    }

    /**
     * A chat's history as its page shows it: its latest {@link #HISTORY_LIMIT} messages, or those before a point.
     *
     * @param lastSeq the highest {@code seq} of a stored message, read before the messages: the page connects with
     *     {@code resume_from=lastSeq}, so that nothing stored or streamed meanwhile is missed
     * @param offset the position in the chat (0 for its first message) of the first message here; earlier ones are
     *     asked for with {@code before=offset}
     */
    public record History(
            Chat chat, List<ChatMessage> messages, long lastSeq, int offset, ChatReviews.@Nullable ChatReview review) {}

    /**
     * The history behind a page link. An address that keeps naming chats that do not exist (or bad tokens) is
     * stopped like one guessing API keys; each chat's page may ask {@code pageRequestsPerMinute} times a minute.
     *
     * @param before {@code null} for the latest {@link #HISTORY_LIMIT} messages, or a position: the (at most as many)
     *     messages before it
     * @throws ChatNotFound when no chat has this id
     * @throws ServiceError the embed token failures, and {@link RateLimited}
     */
    public History history(String chatId, @Nullable String token, String clientAddress, @Nullable Integer before) {
        if (before != null && before < 0) {
            throw new InvalidInput(
                    "before must be a message position, 0 or more",
                    "Send the offset of the history answer whose earlier messages you want.",
                    List.of(new FieldProblem("before", "must be 0 or more")));
        }
        Chat chat = openByLink(chatId, token, clientAddress);
        spendPageRequest(chat.id());
        long lastSeq = byId.latestEventSeq(chat.id());
        // positions are dense and messages are never removed one by one, so a position names the same message forever.
        // The latest page reads to the chat's end as it is now, not to the count read with the chat: a message stored
        // between that read and lastSeq's has a seq at or below lastSeq, so no resume would bring it either.
        int end = before == null ? Integer.MAX_VALUE : Math.min(before, chat.messageCount());
        int offset = Math.max(0, Math.min(end, chat.messageCount()) - HISTORY_LIMIT);
        List<ChatMessage> messages = new ArrayList<>();
        while (offset + messages.size() < end) {
            int limit = (int) Math.min(HISTORY_PAGE, (long) end - offset - messages.size());
            Page<ChatMessage> page =
                    chats.messages(chat.tenantId(), chat.id(), new PageRequest(offset + messages.size(), limit, true));
            messages.addAll(page.items());
            if (page.items().size() < limit) {
                break;
            }
        }
        return new History(chat, messages, lastSeq, offset, reviewOf(chat));
    }

    /**
     * The chat of a page link, the link checked as a credential: guesses spend the address's failure budget, and an
     * address past it is heard only as {@link #heardWhileThrottled} says (the budget refuses guesses, never links
     * known to be valid: docs/api.md, Rate limits).
     */
    private Chat openByLink(String chatId, @Nullable String token, String clientAddress) {
        boolean throttled = authenticator.throttled(clientAddress) != null;
        if (throttled && !heardWhileThrottled(chatId, token, clientAddress)) {
            throw tooManyFailures();
        }
        Chat chat;
        try {
            chat = open(chatId, token);
        } catch (ServiceError failed) {
            authenticator.failed(clientAddress);
            // a spent address's guess is refused as one, whatever its look-up found
            throw throttled ? tooManyFailures() : failed;
        }
        opened(chat);
        return chat;
    }

    /**
     * Whether a link (with its embed token, if any) from an address past its failure budget is heard: one this node
     * opened lately, or whose embed token verifies for it (no look-up either way); else a look-up, from the address's
     * own budget of look-ups while it is past its failures ({@code rate-limit.throttled-link-lookups-per-minute},
     * across the cluster): a link valid on another node, or created and never opened, still opens, at a bounded cost.
     * A look-up that finds nothing is a failure as any other, and refused as the address's other guesses are (429).
     */
    boolean heardWhileThrottled(@Nullable String chatId, @Nullable String token, String clientAddress) {
        if (knowsLink(chatId)) {
            return true;
        }
        Optional<ChatId> id =
                chatId == null ? Optional.empty() : Ids.uuid(chatId).map(ChatId::of);
        if (id.isEmpty()) {
            return false;
        }
        return tokens.vouchesFor(token, id.get(), clock.instant())
                || authenticator.mayLookUpWhileThrottled(clientAddress);
    }

    private static RateLimited tooManyFailures() {
        return new RateLimited(
                "Too many requests for chats that do not exist from this address in the last minute",
                "Wait a minute, then open the link you were given.",
                60);
    }

    /** Whether this node opened the chat by its link lately: no look-up. */
    boolean knowsLink(@Nullable String chatId) {
        return chatId != null
                && Ids.uuid(chatId)
                        .map(id -> knownLinks.getIfPresent(ChatId.of(id)) != null)
                        .orElse(false);
    }

    /** A chat opened by its link (its page loaded, its socket admitted): known from now on. */
    void opened(Chat chat) {
        knownLinks.put(chat.id(), Boolean.TRUE);
    }

    /**
     * The review a page link's chat is about, checked and counted as its history is, for a page that waits for it.
     *
     * @return empty for a chat about no review
     */
    public Optional<ChatReviews.ChatReview> review(String chatId, @Nullable String token, String clientAddress) {
        Chat chat = openByLink(chatId, token, clientAddress);
        spendPageRequest(chat.id());
        return Optional.ofNullable(reviewOf(chat));
    }

    /**
     * The chat's student asks for a regrade from the page, its link checked and counted as its history is.
     *
     * @throws ChatNotFound when the link's chat is about no review
     */
    public ChatReviews.Regrade requestRegrade(
            String chatId, @Nullable String token, String clientAddress, @Nullable String criterionId, String message) {
        Chat chat = openByLink(chatId, token, clientAddress);
        spendPageRequest(chat.id());
        for (ChatReviews source : reviews) {
            Optional<ChatReviews.Regrade> asked = source.requestRegrade(chat, criterionId, message);
            if (asked.isPresent()) {
                return asked.get();
            }
        }
        throw new ChatNotFound(chatId);
    }

    private ChatReviews.@Nullable ChatReview reviewOf(Chat chat) {
        for (ChatReviews source : reviews) {
            Optional<ChatReviews.ChatReview> review = source.reviewOf(chat);
            if (review.isPresent()) {
                return review.get();
            }
        }
        return null;
    }

    /**
     * The chat a page link names, if its tenant lets the link open it: the bare link, or the link with a valid
     * embed token when the tenant requires one (a token is not checked when it is not required).
     */
    public Chat open(String chatId, @Nullable String token) {
        Chat chat =
                Ids.uuid(chatId).map(ChatId::of).flatMap(byId::findByLink).orElseThrow(() -> new ChatNotFound(chatId));
        checkToken(chat, policy(chat.tenantId()), token);
        return chat;
    }

    /**
     * Lets the link open the chat, or throws why not.
     *
     * @return until when: the token's expiry when the tenant requires tokens, else empty (for good)
     */
    Optional<Instant> checkToken(Chat chat, EmbedPolicy policy, @Nullable String token) {
        if (!policy.requireEmbedToken()) {
            return Optional.empty();
        }
        if (token == null || token.isBlank()) {
            throw new EmbedTokenRequired();
        }
        return Optional.of(tokens.verify(token.strip(), chat.tenantId().value(), chat.id(), clock.instant()));
    }

    Optional<Chat> findByLink(String chatId) {
        return Ids.uuid(chatId).map(ChatId::of).flatMap(byId::findByLink);
    }

    /** The chat of a link with its latest event seq, for the page's WebSocket: one round trip. */
    Optional<ChatEntry> enterByLink(String chatId) {
        return Ids.uuid(chatId).map(ChatId::of).flatMap(byId::enterByLink);
    }

    /**
     * An embed token for one of the tenant's chats.
     *
     * @param ttl how long it lasts; {@code null} takes {@code chat-ui.embed-token-ttl}
     */
    public EmbedToken mintEmbedToken(TenantId tenantId, ChatId chatId, @Nullable Duration ttl) {
        chats.chat(tenantId, chatId);
        Duration lifetime = ttl == null ? settings.embedTokenTtl() : ttl;
        if (lifetime.compareTo(Duration.ofMinutes(1)) < 0 || lifetime.compareTo(settings.embedTokenMaxTtl()) > 0) {
            throw InvalidInput.field(
                    "ttl_seconds",
                    "must be between 60 and " + settings.embedTokenMaxTtl().toSeconds(),
                    "Ask for a lifetime from a minute to "
                            + settings.embedTokenMaxTtl().toHours() + " hours.");
        }
        return tokens.mint(tenantId.value(), chatId, clock.instant().plus(lifetime));
    }

    /** The tenant's page settings, or the defaults when it set none. */
    public EmbedPolicy policy(TenantId tenantId) {
        return policies.find(tenantId.value()).orElseGet(() -> EmbedPolicy.defaults(tenantId.value()));
    }

    @Transactional
    public EmbedPolicy changePolicy(TenantId tenantId, PolicyChange change) {
        EmbedPolicy policy = change.apply(tenantId.value());
        policies.save(policy, Sql.now(clock));
        return policy;
    }

    /** The page's {@code frame-ancestors}: its chat's tenant's setting; anywhere for a link to no chat. */
    public String frameAncestors(String chatId) {
        return findByLink(chatId)
                .map(chat -> policy(chat.tenantId()).frameAncestorsDirective())
                .orElse("*");
    }

    /** Where browsers reach the page, when configured ({@code CHAT_UI_URL}). */
    public Optional<String> configuredUrl() {
        String url = settings.url();
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        String stripped = url.strip();
        return Optional.of(stripped.endsWith("/") ? stripped.substring(0, stripped.length() - 1) : stripped);
    }

    /**
     * The page's URL for the links the service writes ({@code chatIframeUrl}, embed links, webhook bodies):
     * {@code CHAT_UI_URL}, else {@code PUBLIC_URL/chat}, else the request's own base when its {@code Host} is one of
     * {@code ALLOWED_HOSTS}; otherwise (a host nobody listed, or no request: a review job's webhook) {@code /chat},
     * relative to wherever the service is reached. A {@code Host} header never puts another site in a link.
     */
    public String pageUrl() {
        Optional<String> configured = configuredUrl()
                .or(() -> Optional.ofNullable(settings.publicUrl())
                        .map(String::strip)
                        .filter(url -> !url.isEmpty())
                        .map(url -> (url.endsWith("/") ? url.substring(0, url.length() - 1) : url) + "/chat"));
        if (configured.isPresent()) {
            return configured.get();
        }
        if (org.springframework.web.context.request.RequestContextHolder.getRequestAttributes() == null) {
            return "/chat";
        }
        var base = org.springframework.web.servlet.support.ServletUriComponentsBuilder.fromCurrentContextPath();
        String host = base.build().getHost();
        boolean allowed = host != null
                && settings.allowedHosts().stream()
                        .map(String::strip)
                        .anyMatch(listed -> listed.equalsIgnoreCase(host));
        return allowed ? base.path("/chat").toUriString() : "/chat";
    }

    private void spendPageRequest(ChatId chatId) {
        RateLimitDecision decision =
                limiter.tryConsume("chat-ui-page:" + chatId, Quota.perMinute(settings.pageRequestsPerMinute()));
        if (!decision.allowed()) {
            throw new RateLimited(
                    "This chat's page was loaded more than " + decision.limit() + " times this minute",
                    "Wait " + RateLimitDecision.seconds(decision.retryAfter()) + " s (Retry-After), then reload.",
                    RateLimitDecision.seconds(decision.retryAfter()));
        }
    }
}
