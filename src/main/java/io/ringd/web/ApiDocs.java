package io.ringd.web;

/** Texts of the API description that every feature shares. */
public final class ApiDocs {

    /** The media type of every error answer. */
    public static final String PROBLEM = "application/problem+json";
    /** The media type of every other answer and request body. */
    public static final String JSON = "application/json";

    private ApiDocs() {
    }
}
