function r = parse_opts(varargin)
% Helper of parsing_validation.m: an inputParser with every kind of input.
p = inputParser;
addRequired(p, 'x', @isnumeric);
addOptional(p, 'n', 3, @(v) isnumeric(v) && isscalar(v));
addParameter(p, 'Mode', 'fast', @ischar);
p.addParameter('Scale', 1);
parse(p, varargin{:});
r = p.Results;
end
