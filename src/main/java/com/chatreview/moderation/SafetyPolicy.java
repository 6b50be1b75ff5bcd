package com.chatreview.moderation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The policy of each category's reply (docs/safety.md, The reply), in English, German, French and Spanish: caring
 * and never a cold refusal after a possible self-harm message, with the tenant's help text; a calm refusal of what
 * would hurt someone, with a pointer to an adult they trust; a reminder to keep contact details private. The texts
 * are fixed: what a student in danger reads must not depend on what a model makes of it.
 */
public class SafetyPolicy {

    private static final Pattern WORD = Pattern.compile("[\\p{L}']+");

    private static final Map<String, Set<String>> COMMON_WORDS = Map.of(
            "en",
                    Set.of(
                            "the", "i", "and", "to", "is", "my", "you", "it", "me", "a", "of", "want", "with", "what",
                            "can"),
            "de",
                    Set.of(
                            "ich", "und", "die", "der", "das", "ist", "nicht", "mich", "mir", "du", "ein", "eine", "zu",
                            "mit", "will", "bin", "hab", "habe", "auf", "was", "wie"),
            "fr",
                    Set.of(
                            "je", "et", "le", "la", "les", "est", "pas", "me", "moi", "tu", "un", "une", "de", "des",
                            "veux", "que", "qui", "c'est", "j'ai", "mais", "pour", "avec"),
            "es",
                    Set.of(
                            "yo", "y", "el", "la", "los", "las", "es", "no", "me", "mi", "tu", "un", "una", "de", "que",
                            "quiero", "para", "con", "pero", "estoy", "tengo", "por"));

    private final JsonMapper json;

    SafetyPolicy(JsonMapper json) {
        this.json = json;
    }

    /**
     * The reply to a stored message by its metadata: empty when the screening flagged nothing in it.
     *
     * @param helpText the tenant's help text, or null for the service's own: read only for a flagged message (every
     *     reply asks, few are flagged)
     */
    public Optional<SafetyReply> replyTo(String text, String metadata, Supplier<@Nullable String> helpText) {
        if (!metadata.contains("\"moderation\"")) {
            return Optional.empty();
        }
        JsonNode categories = json.readTree(metadata).path("moderation").path("categories");
        List<SafetyCategory> flagged = new ArrayList<>();
        for (SafetyCategory category : SafetyCategory.values()) {
            for (JsonNode name : categories) {
                if (name.asString().equals(category.value())) {
                    flagged.add(category);
                }
            }
        }
        if (flagged.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(reply(flagged, languageOf(text), helpText.get()));
    }

    static SafetyReply reply(List<SafetyCategory> categories, String language, @Nullable String helpText) {
        List<String> parts = new ArrayList<>();
        boolean answerFollows = true;
        for (SafetyCategory category : categories) {
            parts.add(text(category, language, helpText));
            answerFollows &= category == SafetyCategory.SELF_HARM || category == SafetyCategory.CONTACT_DETAILS;
        }
        return new SafetyReply(String.join("\n\n", parts), answerFollows);
    }

    /** The language most of the text's common words belong to; English when none stands out. */
    static String languageOf(String text) {
        Map<String, Integer> hits = new HashMap<>();
        var words = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (words.find()) {
            String word = words.group();
            COMMON_WORDS.forEach((language, common) -> {
                if (common.contains(word)) {
                    hits.merge(language, 1, Integer::sum);
                }
            });
        }
        return hits.entrySet().stream()
                .filter(entry -> entry.getValue() > hits.getOrDefault("en", 0))
                .max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey)
                .orElse("en");
    }

    private static String text(SafetyCategory category, String language, @Nullable String helpText) {
        String help = helpText != null ? helpText : DEFAULT_HELP.getOrDefault(language, DEFAULT_HELP.get("en"));
        Map<SafetyCategory, String> texts = TEXTS.getOrDefault(language, TEXTS.get("en"));
        return Objects.requireNonNull(texts).getOrDefault(category, "").replace("{help}", Objects.requireNonNull(help));
    }

    private static final Map<String, String> DEFAULT_HELP = Map.of(
            "en", "If you are in danger right now, call your local emergency number.",
            "de", "Wenn du gerade in Gefahr bist, ruf die 112 an. Die Nummer gegen Kummer erreichst du unter 116 111.",
            "fr", "Si tu es en danger maintenant, appelle le 112. Tu peux aussi appeler le 3114, jour et nuit.",
            "es", "Si estás en peligro ahora mismo, llama al 112. También puedes llamar al 024, a cualquier hora.");

    private static final Map<String, Map<SafetyCategory, String>> TEXTS = Map.of(
            "en",
            Map.of(
                    SafetyCategory.SELF_HARM,
                    "I'm really sorry you're feeling this way. You matter, and you don't have to go through this"
                            + " alone. Please talk to someone you trust today: a parent, a teacher or your school"
                            + " counsellor. {help} I'm an AI and can't help in an emergency, but I'm here for your"
                            + " schoolwork whenever you want.",
                    SafetyCategory.VIOLENCE,
                    "It sounds like something has made you really angry or hurt. I can't help with hurting anyone."
                            + " Please talk to a teacher, your school counsellor or another adult you trust about"
                            + " what's going on. If someone is in danger right now, call your local emergency number.",
                    SafetyCategory.SEXUAL_MINORS,
                    "I can't help with that. If an adult or someone online asks you for pictures, to meet in"
                            + " secret or to keep a secret, that is not okay, and it is never your fault. Please tell"
                            + " a parent, a teacher or another adult you trust. {help}",
                    SafetyCategory.HARASSMENT,
                    "I can't help write something that hurts or embarrasses someone. If there is trouble with a"
                            + " classmate or a teacher, talking to a teacher or your school counsellor can help. I'm"
                            + " happy to help with your schoolwork.",
                    SafetyCategory.CONTACT_DETAILS,
                    "A tip: please don't share phone numbers, home addresses or e-mail addresses here. I don't"
                            + " need them to help you."),
            "de",
            Map.of(
                    SafetyCategory.SELF_HARM,
                    "Es tut mir wirklich leid, dass es dir so geht. Du bist wichtig, und du musst das nicht allein"
                            + " durchstehen. Bitte sprich heute mit jemandem, dem du vertraust: deinen Eltern, einer"
                            + " Lehrerin oder einem Lehrer oder der Schulsozialarbeit. {help} Ich bin eine KI und kann"
                            + " in einem Notfall nicht helfen, aber bei deinen Aufgaben bin ich jederzeit für dich da.",
                    SafetyCategory.VIOLENCE,
                    "Es klingt, als hätte dich etwas sehr wütend gemacht oder verletzt. Dabei, jemandem wehzutun,"
                            + " kann ich nicht helfen. Bitte sprich mit einer Lehrkraft, der Schulsozialarbeit oder"
                            + " einem anderen Erwachsenen, dem du vertraust. Wenn gerade jemand in Gefahr ist, ruf"
                            + " die 110 an.",
                    SafetyCategory.SEXUAL_MINORS,
                    "Dabei kann ich nicht helfen. Wenn ein Erwachsener oder jemand online dich um Bilder bittet,"
                            + " dich heimlich treffen will oder verlangt, dass du etwas geheim hältst, ist das nicht"
                            + " in Ordnung, und es ist nie deine Schuld. Bitte erzähl es deinen Eltern, einer"
                            + " Lehrkraft oder einem anderen Erwachsenen, dem du vertraust. {help}",
                    SafetyCategory.HARASSMENT,
                    "Ich kann nicht helfen, etwas zu schreiben, das jemanden verletzt oder bloßstellt. Wenn es"
                            + " Ärger mit jemandem aus der Klasse oder einer Lehrkraft gibt, hilft es, mit einer"
                            + " Lehrkraft oder der Schulsozialarbeit zu sprechen. Bei deinen Aufgaben helfe ich gern.",
                    SafetyCategory.CONTACT_DETAILS,
                    "Ein Tipp: Teile hier bitte keine Telefonnummern, Adressen oder E-Mail-Adressen. Ich brauche"
                            + " sie nicht, um dir zu helfen."),
            "fr",
            Map.of(
                    SafetyCategory.SELF_HARM,
                    "Je suis vraiment désolé que tu te sentes comme ça. Tu comptes, et tu n'as pas à traverser ça"
                            + " seul. S'il te plaît, parle aujourd'hui à quelqu'un en qui tu as confiance : un parent,"
                            + " un professeur ou l'infirmière scolaire. {help} Je suis une IA et je ne peux pas aider"
                            + " en cas d'urgence, mais je suis là pour tes devoirs quand tu veux.",
                    SafetyCategory.VIOLENCE,
                    "On dirait que quelque chose t'a mis très en colère ou t'a blessé. Je ne peux pas aider à faire"
                            + " du mal à quelqu'un. Parle de ce qui se passe à un professeur, au CPE ou à un autre"
                            + " adulte en qui tu as confiance. Si quelqu'un est en danger maintenant, appelle le 17.",
                    SafetyCategory.SEXUAL_MINORS,
                    "Je ne peux pas aider avec ça. Si un adulte ou quelqu'un en ligne te demande des photos, de te"
                            + " voir en secret ou de garder un secret, ce n'est pas normal, et ce n'est jamais de ta"
                            + " faute. Parles-en à un parent, à un professeur ou à un autre adulte en qui tu as"
                            + " confiance. {help}",
                    SafetyCategory.HARASSMENT,
                    "Je ne peux pas aider à écrire quelque chose qui blesse ou humilie quelqu'un. S'il y a un"
                            + " problème avec un élève ou un professeur, en parler à un professeur ou au CPE peut"
                            + " aider. Je t'aide volontiers pour tes devoirs.",
                    SafetyCategory.CONTACT_DETAILS,
                    "Un conseil : ne partage pas ici de numéro de téléphone, d'adresse ou d'adresse e-mail. Je n'en"
                            + " ai pas besoin pour t'aider."),
            "es",
            Map.of(
                    SafetyCategory.SELF_HARM,
                    "Siento mucho que te sientas así. Importas, y no tienes que pasar por esto solo. Por favor,"
                            + " habla hoy con alguien de confianza: tu familia, un profesor o el orientador del"
                            + " centro. {help} Soy una IA y no puedo ayudar en una emergencia, pero estoy aquí para"
                            + " tus tareas cuando quieras.",
                    SafetyCategory.VIOLENCE,
                    "Parece que algo te ha enfadado o herido mucho. No puedo ayudar a hacer daño a nadie. Habla de"
                            + " lo que pasa con un profesor, el orientador u otro adulto de confianza. Si alguien está"
                            + " en peligro ahora mismo, llama al 112.",
                    SafetyCategory.SEXUAL_MINORS,
                    "No puedo ayudar con eso. Si un adulto o alguien en internet te pide fotos, quedar en secreto o"
                            + " guardar un secreto, eso no está bien, y nunca es culpa tuya. Cuéntaselo a tu familia,"
                            + " a un profesor o a otro adulto de confianza. {help}",
                    SafetyCategory.HARASSMENT,
                    "No puedo ayudar a escribir algo que hiera o humille a alguien. Si hay un problema con un"
                            + " compañero o un profesor, hablar con un profesor o con el orientador puede ayudar. Con"
                            + " tus tareas te ayudo encantado.",
                    SafetyCategory.CONTACT_DETAILS,
                    "Un consejo: no compartas aquí números de teléfono, direcciones ni correos electrónicos. No los"
                            + " necesito para ayudarte."));
}
