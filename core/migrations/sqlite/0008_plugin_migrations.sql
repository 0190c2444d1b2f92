-- Which migrations of which plugin are applied. Plugins own their tables: each ships its
-- migrations per backend (Registrar::migrations), applied at start-up in plugin order.
CREATE TABLE plugin_migration (
    plugin      TEXT NOT NULL,
    version     BIGINT NOT NULL,
    description TEXT NOT NULL,
    applied     TEXT NOT NULL,
    PRIMARY KEY (plugin, version)
);
