module.exports = require('@plone/volto/razzle.config');
