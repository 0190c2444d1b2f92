// No add-ons and no customisation: the tests exercise stock Volto. The one setting is Volto's
// multilingual mode, which the site owner sets in the app (Volto's documented way), switched on
// when the server is started with RAZZLE_WCS_LANGUAGES (e.g. "en,de", the site language first).
// It is read at run time, so the same build serves the one-language and the multilingual flows:
// the server's process environment, and in the browser the `window.env` Volto fills from it.
const LANGUAGES_VARIABLE = ['RAZZLE', 'WCS', 'LANGUAGES'].join('_'); // not frozen in at build time

function runtimeLanguages() {
  const source = typeof window !== 'undefined' ? window.env || {} : process.env;
  return (source[LANGUAGES_VARIABLE] || '')
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean);
}

export default function applyConfig(config) {
  const languages = runtimeLanguages();
  if (languages.length > 1) {
    config.settings.isMultilingual = true;
    config.settings.supportedLanguages = languages;
    config.settings.defaultLanguage = languages[0];
  }
  return config;
}
