% Figures: MATLAB graphics drawn by matplotlib (pip install '.[plot]').
% Run: matfuse examples/figures.m   (writes docs/figure.png)
t = linspace(0, 4*pi, 200);
subplot(1, 2, 1)
plot(t, sin(t), 'LineWidth', 1.5, 'DisplayName', 'sin t')
hold on
plot(t, exp(-t/6) .* cos(2*t), 'r--', 'DisplayName', 'damped')
hold off
xlabel('t'); ylabel('value'); title('Lines'); legend('Location', 'southwest'); grid on
subplot(1, 2, 2)
[X, Y] = meshgrid(linspace(-2, 2, 40));
Z = X .* exp(-X.^2 - Y.^2);
contourf(X, Y, Z, 10); colorbar
title('contourf')
exportgraphics(gcf, 'docs/figure.png', 'Resolution', 90)
