// No add-ons and no customisation: the tests exercise stock Volto.
export default function applyConfig(config) {
  return config;
}
