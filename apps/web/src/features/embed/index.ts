export { EMBED_TEXT, EmbedFrame, type EmbedFrameProps } from "./components/embed-frame";
export { EMBED_SIGN_IN_PATH, handSessionBack, receiveTrialDevice } from "./lib/session-handoff";
