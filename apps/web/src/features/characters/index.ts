export { CharacterPage } from "./components/character-page";
export { SiteLayout } from "./components/site-layout";
export { CharactersPage, PremiumPage } from "./components/site-pages";
