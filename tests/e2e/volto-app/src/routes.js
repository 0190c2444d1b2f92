import routes from '@plone/volto/routes';

export default routes;
