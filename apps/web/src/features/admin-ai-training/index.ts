export { aiTrainingKeys } from "./api/ai-training";
export { AdminAiTrainingPage } from "./components/ai-training-page";
