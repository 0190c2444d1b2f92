module.exports = require('@plone/volto/babel');
