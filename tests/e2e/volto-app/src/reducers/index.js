import defaultReducers from '@plone/volto/reducers';

const reducers = {
  ...defaultReducers,
};

export default reducers;
