% A stack (handle class with a private cell property), an abstract base
% class with two subclasses, objects in cells and cellfun over methods.
s = Stack();
s.push(1); s.push('two'); push(s, [3 4]);
disp(s.Size)
x = s.pop();
disp(x)
disp(s.Size)
while ~isempty(s)
    v = s.pop();
end
try
    s.pop();
catch err
    fprintf('%s: %s\n', err.identifier, err.message);
end
shapes = {Circle(2), Rect(2, 3), Circle()};
total = 0;
for k = 1:numel(shapes)
    disp(shapes{k}.describe());
    total = total + area(shapes{k});
end
fprintf('total %.3f\n', total);
areas = cellfun(@area, shapes)
names = cellfun(@(s) s.Name, shapes, 'UniformOutput', false)
c = Circle(3);
try
    a = Shape();
catch err
    disp(err.identifier)
end
