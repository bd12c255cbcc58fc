import { loadCatalogue } from "../i18n.js";
import { initLanguagePicker } from "../dom.js";

loadCatalogue().then(initLanguagePicker);
