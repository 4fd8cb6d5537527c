// Every action handler, registered on import. An action becomes live by adding its module here.
import "../videos/actions.js";
import "../credits/actions.js";
import "../renders/actions.js";
