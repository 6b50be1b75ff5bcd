package com.chatreview.lti.platform;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/** A course (the LTI context) on the platform: its members, the tool's placements in it, and its gradebook. */
public final class Course {

    private final EmulatedPlatform platform;
    private final String id;
    private final String label;
    private final String title;
    private final Map<String, Member> members = new ConcurrentHashMap<>();
    private final Map<String, ResourceLink> links = new ConcurrentHashMap<>();
    private final Map<String, LineItem> lineItems = new ConcurrentHashMap<>();
    private final AtomicInteger sequence = new AtomicInteger();

    Course(EmulatedPlatform platform, String id, String label, String title) {
        this.platform = platform;
        this.id = id;
        this.label = label;
        this.title = title;
    }

    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    public String title() {
        return title;
    }

    public Member learner(String givenName, String familyName) {
        return enrol(givenName, familyName, Lti.LEARNER);
    }

    public Member instructor(String givenName, String familyName) {
        return enrol(givenName, familyName, Lti.INSTRUCTOR);
    }

    private Member enrol(String givenName, String familyName, String role) {
        String sub = "user-" + platform.next();
        Member member =
                new Member(sub, givenName, familyName, givenName.toLowerCase() + "@school.example", List.of(role));
        members.put(sub, member);
        return member;
    }

    public Optional<Member> member(String sub) {
        return Optional.ofNullable(members.get(sub));
    }

    /** A placement made by hand in the platform's settings (custom parameters, an optional gradebook column). */
    public ResourceLink place(String title, Map<String, String> custom, @Nullable Double scoreMaximum) {
        String linkId = "link-" + platform.next();
        LineItem lineItem = scoreMaximum == null ? null : addLineItem(title, scoreMaximum, null, null, linkId);
        ResourceLink link = new ResourceLink(linkId, title, null, Map.copyOf(custom), lineItem);
        links.put(linkId, link);
        return link;
    }

    ResourceLink place(String title, String url, Map<String, String> custom, @Nullable LineItem lineItem) {
        String linkId = "link-" + platform.next();
        if (lineItem != null) {
            lineItem.linkTo(linkId);
        }
        ResourceLink link = new ResourceLink(linkId, title, url, Map.copyOf(custom), lineItem);
        links.put(linkId, link);
        return link;
    }

    public List<ResourceLink> links() {
        return List.copyOf(links.values());
    }

    boolean hasLink(String linkId) {
        return links.containsKey(linkId);
    }

    /** A gradebook column, as a teacher (or another tool) adds one to the course. */
    public LineItem addLineItem(
            String label,
            double scoreMaximum,
            @Nullable String resourceId,
            @Nullable String tag,
            @Nullable String resourceLinkId) {
        int number = sequence.incrementAndGet();
        String url = lineItemsPath() + "/" + number + "/lineitem?type_id=" + platform.typeId();
        LineItem item = new LineItem(url, this, label, scoreMaximum, resourceId, tag, resourceLinkId);
        lineItems.put(String.valueOf(number), item);
        return item;
    }

    @Nullable
    LineItem lineItem(String number) {
        return lineItems.get(number);
    }

    boolean removeLineItem(String number) {
        return lineItems.remove(number) != null;
    }

    public List<LineItem> lineItems() {
        return lineItems.entrySet().stream()
                .sorted(Map.Entry.comparingByKey((a, b) -> Integer.compare(Integer.parseInt(a), Integer.parseInt(b))))
                .map(Map.Entry::getValue)
                .toList();
    }

    /** The line items container's URL, as the AGS claim gives it. */
    public String lineItemsUrl() {
        return lineItemsPath() + "?type_id=" + platform.typeId();
    }

    private String lineItemsPath() {
        return platform.issuer() + "/courses/" + id + "/lineitems";
    }
}
