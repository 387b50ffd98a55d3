% Program tools of issue 19: inputParser, validateattributes,
% validatestring, evalc, assignin/evalin, addCause, whos.
p = inputParser;
p.FunctionName = 'myfn';
addRequired(p, 'x', @isnumeric);
addOptional(p, 'y', 5);
addParameter(p, 'Mode', 'fast', @(s) any(strcmp(s, {'fast', 'slow'})));
parse(p, 3, 'Mode', 'slow');
disp(p.Results)
disp(p.UsingDefaults)
p.parse(4, 6);
disp(p.Results.y)
try
  parse(p, 'a');
catch err
  disp(err.identifier); disp(err.message)
end
q = inputParser;
q.KeepUnmatched = true;
q.addParameter('A', 1);
q.parse('A', 2, 'B', 3);
disp(q.Results.A); disp(q.Unmatched)
validateattributes(5, {'numeric'}, {'positive', 'scalar', 'integer'})
try
  validateattributes(-1, {'numeric'}, {'positive'})
catch err
  disp(err.identifier); disp(err.message)
end
try
  validateattributes([1 2], {'numeric'}, {'scalar'}, '', 'X', 2)
catch err
  disp(err.identifier); disp(err.message)
end
try
  validateattributes('a', {'double', 'single'}, {})
catch err
  disp(err.identifier); disp(err.message)
end
validateattributes(ones(2,3), {'double'}, {'size', [2 NaN], 'nonnegative', 'finite', 'nonempty', '2d'})
s = validatestring('app', {'apple', 'banana'})
try
  validatestring('x', {'apple', 'banana'})
catch err
  disp(err.identifier); disp(err.message)
end
t = evalc('disp(42)')
t = evalc('x = 3')
[t, v] = evalc('max([1 9 2])')
assignin('base', 'fromfn', 11);
disp(fromfn)
v = evalin('base', 'fromfn + 1')
ME = MException('top:id', 'Top %d', 1);
ME = addCause(ME, MException('low:id', 'Low'));
disp(numel(ME.cause)); disp(ME.cause{1}.identifier)
try
  throw(ME)
catch err
  disp(err.message); disp(err.cause{1}.message)
end
a1 = 1; b2 = 'xy';
w = whos('a1');
disp(w.class); disp(w.size)
